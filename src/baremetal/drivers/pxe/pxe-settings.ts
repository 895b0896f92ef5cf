/**
 * What the `pxe` boot interface runs with: Ironic's `[pxe]` options it reads
 * (ironic/conf/pxe.py) and `[conductor] file_url_allowed_paths` and `automated_clean`, with the real defaults.
 */
import { DEFAULT_FILE_URL_ALLOWED_PATHS } from '../images/file-image-href.ts';

export interface PxeSettings {
  /** `[pxe] tftp_root`: the node directories and the MAC links are written under it. */
  readonly tftpRoot: string;
  /** `[pxe] pxe_config_subdir`: the directory (under the root) of the per-MAC links. */
  readonly configSubdir: string;
  /** `[pxe] tftp_server`: the address the UEFI (GRUB) configuration names. */
  readonly tftpServer: string;
  /** `[pxe] kernel_append_params`: appended to every kernel command line. */
  readonly kernelAppendParams: string;
  /** `[conductor] file_url_allowed_paths`: where file:// images may be. */
  readonly fileUrlAllowedPaths: readonly string[];
  /**
   * `[conductor] automated_clean`: cleaning boots the agent, so a ramdisk deploy of a node
   * that will be cleaned still needs the deploy ramdisk in its driver_info.
   */
  readonly automatedClean: boolean;
}

export const PXE_DEFAULTS: PxeSettings = {
  tftpRoot: '/tftpboot',
  configSubdir: 'pxelinux.cfg',
  // The real default is $my_ip, the conductor's address; Baton does not guess one.
  tftpServer: '127.0.0.1',
  kernelAppendParams: 'nofb nomodeset vga=normal',
  fileUrlAllowedPaths: DEFAULT_FILE_URL_ALLOWED_PATHS,
  automatedClean: true,
};

/** The part a conductor's settings hold (automated_clean is a setting of its own). */
export type PxeOptions = Omit<PxeSettings, 'automatedClean'>;
