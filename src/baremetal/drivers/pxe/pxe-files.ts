/**
 * The PXE files of one node on disk (the real `create_pxe_config`, `switch_pxe_config`,
 * `clean_up_pxe_config`): the configuration written under the node's directory, a relative
 * symbolic link to it for each port's MAC, and all of it removed again. Layout and text are
 * pxe-config.ts's.
 */
import { mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { posix } from 'node:path';
import {
  type BootLabel,
  configFilePath,
  INITIAL_GRUB_CONFIG,
  initialGrubConfigPath,
  linkTarget,
  macLinkPaths,
  nodeDirectory,
  switchBootLabel,
} from './pxe-config.ts';

/** A port as the links need it: its MAC and the InfiniBand client-id in its extra. */
export interface PortAddress {
  readonly address: string;
  readonly clientId?: string | null;
}

export interface PxeLayout {
  readonly root: string;
  readonly subdir: string;
  readonly uuid: string;
}

const FILE_MODE = 0o644;

const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT') throw error;
};

/**
 * place_common_config: `<root>/grub/grub.cfg`. The real conductor writes it when it loads
 * the interface; Baton writes it with the first node file, so that a conductor whose TFTP
 * root is not writable still starts (and nodes of other boot interfaces are unaffected).
 */
export async function placeCommonConfig(root: string): Promise<void> {
  const path = initialGrubConfigPath(root);
  await mkdir(posix.dirname(path), { recursive: true });
  await writeFile(path, INITIAL_GRUB_CONFIG);
}

export async function ensureNodeDirectories(layout: PxeLayout): Promise<void> {
  await placeCommonConfig(layout.root);
  await mkdir(nodeDirectory(layout.root, layout.uuid), { recursive: true });
  await mkdir(posix.join(layout.root, layout.subdir), { recursive: true });
}

export async function configExists(layout: PxeLayout): Promise<boolean> {
  const text = await readFile(configFilePath(layout.root, layout.uuid), 'utf8').catch(() => null);
  return text !== null;
}

/** Writes the node's configuration and links every port's MAC to it (replacing old links). */
export async function writePxeConfig(
  layout: PxeLayout,
  text: string,
  ports: readonly PortAddress[],
): Promise<void> {
  await ensureNodeDirectories(layout);
  const config = configFilePath(layout.root, layout.uuid);
  await writeFile(config, text, { mode: FILE_MODE });
  for (const port of ports) {
    for (const link of macLinkPaths(layout.root, layout.subdir, port.address, port.clientId)) {
      await unlink(link).catch(ignoreMissing);
      await symlink(linkTarget(link, config), link);
    }
  }
}

/** Points the configuration's default at another entry (the file must exist). */
export async function switchPxeConfig(
  layout: PxeLayout,
  bootMode: string,
  label: BootLabel,
): Promise<void> {
  const config = configFilePath(layout.root, layout.uuid);
  const text = await readFile(config, 'utf8');
  await writeFile(config, switchBootLabel(text, bootMode, label));
}

/** Removes every port's links and the node's directory; what is already gone is no error. */
export async function removePxeConfig(
  layout: PxeLayout,
  ports: readonly PortAddress[],
): Promise<void> {
  for (const port of ports) {
    for (const link of macLinkPaths(layout.root, layout.subdir, port.address, port.clientId)) {
      await unlink(link).catch(ignoreMissing);
    }
  }
  await rm(nodeDirectory(layout.root, layout.uuid), { recursive: true, force: true });
}
