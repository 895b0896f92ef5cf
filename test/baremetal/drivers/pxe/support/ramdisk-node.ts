/**
 * The node the pxe boot tests hand the interface: ipmi hardware deployed by ramdisk, a UUID of
 * its own, its dicts empty and automated cleaning left to the settings, `fields` over that.
 */
import { randomUUID } from 'node:crypto';
import { Node } from '../../../../../src/baremetal/objects/index.ts';

export const ipmiRamdiskNode = (fields: Record<string, unknown>) =>
  Node.create({
    uuid: randomUUID(),
    driver: 'ipmi',
    deploy_interface: 'ramdisk',
    driver_info: {},
    driver_internal_info: {},
    instance_info: {},
    properties: {},
    automated_clean: null,
    ...fields,
  } as never);
