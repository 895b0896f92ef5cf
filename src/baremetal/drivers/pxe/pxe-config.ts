/**
 * A node's PXE configuration as the real `pxe_utils` lays it out under `[pxe] tftp_root`,
 * without I/O: the node's directory `<root>/<uuid>/` holds `config` and the images it names
 * (`kernel`, `ramdisk`, `deploy_kernel`, `deploy_ramdisk`), paths in the file relative to the
 * root as the TFTP server serves them; each port's MAC links to the file, for PXELINUX
 * (`<root>/<subdir>/01-aa-bb-cc-dd-ee-ff`, `20-…` for an InfiniBand port with a client-id) and
 * for GRUB (`<root>/grub.cfg-01-aa-bb-cc-dd-ee-ff`, `<root>/aa:bb:cc:dd:ee:ff.conf`, which
 * the common `<root>/grub/grub.cfg` has GRUB read).
 *
 * The file is the real templates' text as Jinja renders it (no newline at the end): PXELINUX for legacy BIOS, GRUB for UEFI, one entry per
 * way of booting (`deploy`, `boot_ramdisk`, `boot_whole_disk`, `boot_anaconda`), the default
 * naming the one the node boots next. A ramdisk deploy switches it to `boot_ramdisk`.
 */
import { posix } from 'node:path';

/** The labels under the node's directory, as the real ones name the files. */
export const IMAGE_LABELS = ['kernel', 'ramdisk'] as const;
export const DEPLOY_IMAGE_LABELS = ['deploy_kernel', 'deploy_ramdisk'] as const;

/** What the templates fill in (the real `pxe_options`); absent ones are left empty. */
export interface PxeOptions {
  readonly deploymentAkiPath?: string;
  readonly deploymentAriPath?: string;
  readonly akiPath: string;
  readonly ariPath: string;
  readonly pxeAppendParams: string;
  readonly tftpServer: string;
  /** instance_info `ramdisk_kernel_arguments`. */
  readonly ramdiskOpts?: string;
}

export type BootLabel = 'deploy' | 'boot_ramdisk' | 'boot_whole_disk' | 'boot_anaconda';

export function nodeDirectory(root: string, uuid: string): string {
  return posix.join(root, uuid);
}

/** get_pxe_config_file_path. */
export function configFilePath(root: string, uuid: string): string {
  return posix.join(root, uuid, 'config');
}

/** Where an image of the node goes (get_file_path_from_label). */
export function imagePath(root: string, uuid: string, label: string): string {
  return posix.join(root, uuid, label);
}

/** An image's path as the configuration names it: relative to the TFTP root. */
export function servedPath(root: string, path: string): string {
  return posix.relative(root, path);
}

/** Every link a port's MAC gets to the node's file: PXELINUX's, then GRUB's two. */
export function macLinkPaths(
  root: string,
  subdir: string,
  mac: string,
  clientId?: string | null,
): string[] {
  const dashed = mac.replaceAll(':', '-').toLowerCase();
  const hardwareType = clientId ? '20' : '01';
  return [
    posix.join(root, subdir, `${hardwareType}-${dashed}`),
    posix.join(root, `grub.cfg-01-${dashed}`),
    posix.join(root, `${mac}.conf`),
  ];
}

/** The target a link at `linkPath` holds: the node's file, relative to the link's directory. */
export function linkTarget(linkPath: string, configPath: string): string {
  return posix.relative(posix.dirname(linkPath), configPath);
}

/** Where GRUB, booted from the network, looks first: `<root>/grub/grub.cfg`. */
export function initialGrubConfigPath(root: string): string {
  return posix.join(root, 'grub', 'grub.cfg');
}

/**
 * initial_grub_cfg.template: not node specific, it has GRUB read the file its MAC links to
 * (`/<mac>.conf`).
 */
export const INITIAL_GRUB_CONFIG = [
  'set default=initial',
  'set timeout=5',
  'set hidden_timeout_quiet=false',
  '',
  'menuentry "initial"  {',
  'configfile /$net_default_mac.conf',
  '}',
].join('\n');

const or = (value: string | undefined) => value ?? '';

/** pxe_config.template: PXELINUX, for legacy BIOS. */
function pxelinuxConfig(o: PxeOptions): string {
  return [
    'default deploy',
    '',
    'label deploy',
    `kernel ${or(o.deploymentAkiPath)}`,
    `append initrd=${or(o.deploymentAriPath)} selinux=0 troubleshoot=0 text ${o.pxeAppendParams}`,
    'ipappend 2',
    '',
    'label boot_whole_disk',
    'COM32 chain.c32',
    'append mbr:{{ DISK_IDENTIFIER }}',
    '',
    'label boot_ramdisk',
    `kernel ${o.akiPath}`,
    `append initrd=${o.ariPath} root=/dev/ram0 text ${o.pxeAppendParams} ${or(o.ramdiskOpts)}`,
    '',
    'label boot_anaconda',
    `kernel ${o.akiPath}`,
    `append initrd=${o.ariPath} text ${o.pxeAppendParams} inst.ks= inst.stage2=`,
    'ipappend 2',
  ].join('\n');
}

/** pxe_grub_config.template: GRUB, for UEFI. */
function grubConfig(o: PxeOptions): string {
  return [
    'set default=deploy',
    'set timeout=5',
    'set hidden_timeout_quiet=false',
    '',
    'menuentry "deploy"  {',
    `    linuxefi ${or(o.deploymentAkiPath)} selinux=0 troubleshoot=0 text ${o.pxeAppendParams} boot_server=${o.tftpServer}`,
    `    initrdefi ${or(o.deploymentAriPath)}`,
    '}',
    '',
    'menuentry "boot_ramdisk"  {',
    `    linuxefi ${o.akiPath} root=/dev/ram0 text ${o.pxeAppendParams} ${or(o.ramdiskOpts)}`,
    `    initrdefi ${o.ariPath}`,
    '}',
    '',
    'menuentry "boot_whole_disk"  {',
    '    linuxefi chain.c32 mbr:(( DISK_IDENTIFIER ))',
    '}',
    '',
    'menuentry "boot_anaconda" {',
    `     linuxefi ${o.akiPath} text ${o.pxeAppendParams} inst.ks= inst.stage2=`,
    `     initrdefi ${o.ariPath}`,
    '}',
  ].join('\n');
}

/** The node's configuration for its boot mode (`uefi` or `bios`), booting `deploy`. */
export function renderPxeConfig(options: PxeOptions, bootMode: string): string {
  return bootMode === 'uefi' ? grubConfig(options) : pxelinuxConfig(options);
}

/** switch_pxe_config's boot line: the entry the node boots next. */
export function switchBootLabel(config: string, bootMode: string, label: BootLabel): string {
  if (bootMode === 'uefi') return config.replace(/^((set )?default)=.*$/gm, `$1=${label}`);
  return config.replace(/^default .*$/gm, `default ${label}`);
}

/** The entry a configuration boots next (for logs and tests). */
export function defaultBootLabel(config: string): string | undefined {
  const match = /^(?:set )?default[= ](\S+)$/m.exec(config);
  return match?.[1];
}
