/**
 * `noop` network (Ironic's `network.noop.NoopNetwork`): the node's networking is not managed;
 * VIFs are accepted and forgotten, so the list stays empty.
 */
import type { Implementation } from '../implementation.ts';
import type { NetworkInterface } from '../interfaces/index.ts';

class NoopNetwork implements NetworkInterface {
  readonly kind = 'network' as const;
  readonly name = 'noop';

  async validate(): Promise<void> {}

  async vifList(): Promise<{ id: string }[]> {
    return [];
  }

  async vifAttach(): Promise<void> {}
  async vifDetach(): Promise<void> {}
  async portChanged(): Promise<void> {}
  async portgroupChanged(): Promise<void> {}
}

export const noopNetwork: Implementation<'network'> = {
  kind: 'network',
  name: 'noop',
  className: 'ironic.drivers.modules.network.noop.NoopNetwork',
  properties: {},
  create: () => new NoopNetwork(),
};
