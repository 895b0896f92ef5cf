/**
 * The `pxe` boot interface (Ironic's `pxe.PXEBoot`, capabilities `ramdisk_boot` and
 * `pxe_boot`): the node network-boots what its PXE configuration under `[pxe] tftp_root` names.
 *
 * - validate: the node needs a port; `image_source` and `boot_iso` exclude each other; the
 *   deploy ramdisk (driver_info `deploy_kernel`, `deploy_ramdisk`) is required unless the deploy
 *   needs no agent (a ramdisk deploy of a node that will not be cleaned); a ramdisk deploy needs
 *   instance_info `kernel` and `ramdisk`. Each refusal is the real message.
 * - prepareInstance, for a ramdisk deploy: the instance's kernel and ramdisk are fetched into the
 *   node's directory (file:// only, within `[conductor] file_url_allowed_paths`), the
 *   configuration is written if absent and switched to `boot_ramdisk`, and the node is set to
 *   boot from PXE persistently (not again once active). For any other deploy the configuration
 *   is removed and the node boots from disk.
 * - prepareRamdisk: the deploy ramdisk's configuration, booting `deploy`, and a one-time PXE
 *   boot (only an agent deploy or cleaning, which Baton does not run yet, would call it).
 * - cleanUpInstance and cleanUpRamdisk: the images, the MAC links and the node's directory go.
 *
 * Not built: iPXE (`ipxe`), the DHCP options a Neutron network would get, the GRUB links by IP
 * address, the master image cache, Glance and HTTP images, boot_iso.
 */
import { skipsAutomatedCleaning } from '../../common/automated-cleaning.ts';
import { pythonListRepr } from '../../common/driver-errors.ts';
import { InvalidParameterError, MissingParameterError } from '../../common/errors.ts';
import { ProvisionState as S } from '../../common/provision-states.ts';
import type { NodeObject } from '../../objects/index.ts';
import { type ConductorTask, conductorTask, type DriverTask } from '../base-interface.ts';
import { bootModeOf } from '../boot-mode.ts';
import { fetchImage } from '../images/image-fetch.ts';
import type { Implementation } from '../implementation.ts';
import type { BootInterface } from '../interfaces/index.ts';
import {
  DEPLOY_IMAGE_LABELS,
  IMAGE_LABELS,
  imagePath,
  type PxeOptions,
  renderPxeConfig,
  servedPath,
} from './pxe-config.ts';
import {
  configExists,
  ensureNodeDirectories,
  type PortAddress,
  type PxeLayout,
  removePxeConfig,
  switchPxeConfig,
  writePxeConfig,
} from './pxe-files.ts';
import { PXE_DEFAULTS, type PxeSettings } from './pxe-settings.ts';

type Info = Record<string, unknown>;

const infoOf = (node: NodeObject, field: 'instance_info' | 'driver_info'): Info =>
  (node.peek(field) ?? {}) as Info;

/** deploy_utils.get_boot_option: a ramdisk deploy boots its ramdisk, any other the disk. */
function bootOption(node: NodeObject): 'ramdisk' | 'local' {
  const override = infoOf(node, 'instance_info').deploy_interface;
  const deploy = override ?? node.peek('deploy_interface');
  return deploy === 'ramdisk' ? 'ramdisk' : 'local';
}

/** check_for_missing_params: MissingParameterValue naming the empty ones, in order. */
function requireParams(values: Info, message: string): void {
  const missing = Object.keys(values).filter((key) => !values[key]);
  if (missing.length > 0) {
    throw new MissingParameterError(`${message}. Missing are: ${pythonListRepr(missing)}`);
  }
}

/** get_kernel_append_params: instance_info, then driver_info, then `[pxe]`; `%default%` expands. */
function kernelAppendParams(node: NodeObject, fallback: string): string {
  for (const field of ['instance_info', 'driver_info'] as const) {
    const value = infoOf(node, field).kernel_append_params;
    if (value !== undefined && value !== null)
      return String(value).replaceAll('%default%', fallback);
  }
  return fallback;
}

/** manager_utils.node_set_boot_device: driver_info `force_persistent_boot_device` decides. */
async function setBootDevice(task: ConductorTask, device: string, persistent: boolean) {
  const management = task.driver.management;
  await management.validate(task);
  const forced = infoOf(task.node, 'driver_info').force_persistent_boot_device;
  let chosen = persistent;
  if (forced === 'Always') chosen = true;
  else if (forced === 'Never') chosen = false;
  else if (forced !== undefined && forced !== null && forced !== 'Default') {
    if (['true', '1', 'yes', 'on', 'y', 't'].includes(String(forced).toLowerCase())) chosen = true;
  }
  await management.setBootDevice(task, device, chosen);
}

const portAddresses = async (task: ConductorTask): Promise<PortAddress[]> =>
  (await task.ports()).map((port) => ({
    address: String(port.get('address')),
    clientId: ((port.get('extra') ?? {}) as Info)['client-id'] as string | undefined,
  }));

class PxeBoot implements BootInterface {
  readonly kind = 'boot' as const;
  readonly name = 'pxe';
  readonly capabilities = ['ramdisk_boot', 'pxe_boot'] as const;
  readonly #settings: PxeSettings;

  constructor(settings: PxeSettings) {
    this.#settings = settings;
  }

  #layout(node: NodeObject): PxeLayout {
    const { tftpRoot, configSubdir } = this.#settings;
    return { root: tftpRoot, subdir: configSubdir, uuid: String(node.peek('uuid')) };
  }

  /** parse_driver_info: the deploy ramdisk's hrefs, or none when no agent is needed. */
  #deployImages(node: NodeObject): Info {
    const needsAgent =
      bootOption(node) !== 'ramdisk' ||
      !skipsAutomatedCleaning(node, this.#settings.automatedClean);
    if (!needsAgent) return {};
    const info = infoOf(node, 'driver_info');
    const images = Object.fromEntries(DEPLOY_IMAGE_LABELS.map((label) => [label, info[label]]));
    requireParams(
      images,
      "Cannot validate PXE bootloader. Some parameters were missing in node's driver_info and configuration",
    );
    return images;
  }

  /** get_image_instance_info for a ramdisk deploy: instance_info kernel and ramdisk. */
  #instanceImages(node: NodeObject): Info {
    const info = infoOf(node, 'instance_info');
    const images = Object.fromEntries(IMAGE_LABELS.map((label) => [label, info[label]]));
    requireParams(
      images,
      `Cannot validate image information for node ${String(node.peek('uuid'))} because one or more parameters are missing from its instance_info and insufficient information is present to boot from a remote volume`,
    );
    return images;
  }

  async validate(task: DriverTask): Promise<void> {
    const ct = conductorTask(task, 'pxe boot');
    const node = task.node;
    if ((await ct.ports()).length === 0) {
      throw new MissingParameterError(
        `Node ${String(node.peek('uuid'))} does not have any port associated with it`,
      );
    }
    const instance = infoOf(node, 'instance_info');
    if (instance.image_source && instance.boot_iso) {
      throw new InvalidParameterError(
        "An 'image_source' and 'boot_iso' parameter may not be specified at the same time",
      );
    }
    this.#deployImages(node);
    if (bootOption(node) !== 'ramdisk') return;
    if (instance.boot_iso) {
      throw new InvalidParameterError(
        'Booting a boot_iso needs iPXE, which Baton does not have: give instance_info kernel and ramdisk.',
      );
    }
    this.#instanceImages(node);
  }

  /** The options every configuration carries (build_instance_pxe_options and the extra ones). */
  #instanceOptions(node: NodeObject, ramdiskParams: Info = {}): PxeOptions {
    const { root, uuid } = this.#layout(node);
    const instance = infoOf(node, 'instance_info');
    const ramdiskBoot = bootOption(node) === 'ramdisk';
    let append = kernelAppendParams(node, this.#settings.kernelAppendParams);
    const params = Object.entries(ramdiskParams);
    if (params.length > 0) {
      append += ` ${params.map(([k, v]) => (v === null || v === undefined ? k : `${k}=${String(v)}`)).join(' ')}`;
    }
    const ramdiskOpts = instance.ramdisk_kernel_arguments;
    return {
      akiPath: ramdiskBoot ? servedPath(root, imagePath(root, uuid, 'kernel')) : 'no_kernel',
      ariPath: ramdiskBoot ? servedPath(root, imagePath(root, uuid, 'ramdisk')) : 'no_ramdisk',
      pxeAppendParams: append,
      tftpServer: this.#settings.tftpServer,
      ...(typeof ramdiskOpts === 'string' ? { ramdiskOpts } : {}),
    };
  }

  async #fetch(node: NodeObject, images: Info): Promise<void> {
    const { root, uuid } = this.#layout(node);
    for (const [label, href] of Object.entries(images)) {
      await fetchImage(
        String(href),
        imagePath(root, uuid, label),
        this.#settings.fileUrlAllowedPaths,
      );
    }
  }

  async prepareRamdisk(task: DriverTask, params: Readonly<Record<string, unknown>>) {
    const ct = conductorTask(task, 'pxe boot');
    const node = task.node;
    const layout = this.#layout(node);
    const deployImages = this.#deployImages(node);
    const options: PxeOptions = {
      ...this.#instanceOptions(node, params),
      deploymentAkiPath: servedPath(
        layout.root,
        imagePath(layout.root, layout.uuid, 'deploy_kernel'),
      ),
      deploymentAriPath: servedPath(
        layout.root,
        imagePath(layout.root, layout.uuid, 'deploy_ramdisk'),
      ),
    };
    await writePxeConfig(
      layout,
      renderPxeConfig(options, bootModeOf(node)),
      await portAddresses(ct),
    );
    await setBootDevice(ct, 'pxe', false);
    await this.#fetch(node, deployImages);
  }

  async prepareInstance(task: DriverTask): Promise<void> {
    const ct = conductorTask(task, 'pxe boot');
    const node = task.node;
    const layout = this.#layout(node);
    const bootMode = bootModeOf(node);
    let device: string;
    if (bootOption(node) === 'ramdisk') {
      const images = this.#instanceImages(node);
      await ensureNodeDirectories(layout);
      await this.#fetch(node, images);
      if (!(await configExists(layout))) {
        const text = renderPxeConfig(this.#instanceOptions(node), bootMode);
        await writePxeConfig(layout, text, await portAddresses(ct));
      }
      await switchPxeConfig(layout, bootMode, 'boot_ramdisk');
      device = 'pxe';
    } else {
      await removePxeConfig(layout, await portAddresses(ct));
      device = 'disk';
    }
    if (node.peek('provision_state') !== S.ACTIVE) await setBootDevice(ct, device, true);
  }

  async cleanUpRamdisk(task: DriverTask): Promise<void> {
    await this.#cleanUp(task);
  }

  async cleanUpInstance(task: DriverTask): Promise<void> {
    await this.#cleanUp(task);
  }

  /** clean_up_pxe_env: the images live in the node's directory, which goes with the links. */
  async #cleanUp(task: DriverTask): Promise<void> {
    const ct = conductorTask(task, 'pxe boot');
    await removePxeConfig(this.#layout(task.node), await portAddresses(ct));
  }
}

export const pxeBoot: Implementation<'boot'> = {
  kind: 'boot',
  name: 'pxe',
  className: 'ironic.drivers.modules.pxe.PXEBoot',
  properties: {
    deploy_kernel: 'UUID (from Glance) of the deployment kernel. Required.',
    deploy_ramdisk: 'UUID (from Glance) of the ramdisk that is mounted at boot time. Required.',
    force_persistent_boot_device:
      "Controls the persistency of boot order changes. 'Always' will make all changes persistent, 'Default' will make all but the final one upon instance deployment non-persistent, and 'Never' will make no persistent changes at all. The old values 'True' and 'False' are still supported but deprecated in favor of the new ones.Defaults to 'Default'. Optional.",
    rescue_kernel:
      'UUID (from Glance) of the rescue kernel. This value is required for rescue mode.',
    rescue_ramdisk:
      'UUID (from Glance) of the rescue ramdisk with agent that is used at node rescue time. This value is required for rescue mode.',
    kernel_append_params:
      'Additional kernel parameters to pass down to instance kernel. These parameters can be consumed by the kernel or by the applications by reading /proc/cmdline. Mind severe cmdline size limit. When used with virtual media, only applies to ISO images that Ironic builds, but not to pre-built ISOs provided via e.g. deploy_iso. Overrides the [pxe]/kernel_append_params configuration option, use %default% to insert its value.',
  },
  create: (options) => new PxeBoot(options.pxe ?? PXE_DEFAULTS),
};
