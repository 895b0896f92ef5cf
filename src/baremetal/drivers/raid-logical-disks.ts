/**
 * GET /v1/drivers/{name}/raid/logical_disk_properties (from 1.12) for a hardware type whose
 * default RAID interface is `fake`: the descriptions of the logical disk keys of Ironic's RAID
 * configuration schema (ironic/drivers/raid_config_schema.json), as the real service returns
 * them.
 */
export const RAID_LOGICAL_DISK_PROPERTIES: Readonly<Record<string, string>> = {
  raid_level:
    "RAID level for the logical disk. Valid values are 'JBOD', '0', '1', '2', '5', '6', '1+0', '5+0' and '6+0'. Required.",
  size_gb:
    "Size in GiB (Integer) for the logical disk. Use 'MAX' as size_gb if this logical disk is supposed to use the rest of the space available. Required.",
  volume_name:
    'Name of the volume to be created. If this is not specified, it will be auto-generated. Optional.',
  is_root_volume:
    'Specifies whether this disk is a root volume. By default, this is False. Optional.',
  share_physical_disks:
    'Specifies whether other logical disks can share physical disks with this logical disk. By default, this is False. Optional.',
  disk_type:
    "The type of disk preferred. Valid values are 'hdd' and 'ssd'. If this is not specified, disk type will not be a selection criterion for choosing backing physical disks. Optional.",
  interface_type:
    "The interface type of disk. Valid values are 'sata', 'scsi' and 'sas'. If this is not specified, interface type will not be a selection criterion for choosing backing physical disks. Optional.",
  number_of_physical_disks:
    'Number of physical disks to use for this logical disk. By default, the driver uses the minimum number of disks required for that RAID level. Optional.',
  controller:
    'Controller to use for this logical disk. If not specified, the driver will choose a suitable RAID controller on the bare metal node. Optional.',
  physical_disks:
    'The physical disks to use for this logical disk. If not specified, the driver will choose suitable physical disks to use. Optional.',
};
