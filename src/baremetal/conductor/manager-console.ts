/**
 * The console RPC methods (Ironic's get_console_information, set_console_mode and
 * _set_console_mode): the console is the node's console interface's; `console_enabled` is
 * written by the conductor once the interface has started or stopped it, in the background.
 */
import { NodeConsoleNotEnabledError } from '../common/errors.ts';
import type { ConductorContext } from './conductor-context.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import { type NodeTask, withNodeTask } from './node-task.ts';

/** How to reach the console; NodeConsoleNotEnabled when it is off (checked before validate). */
export async function getConsoleInformation(
  ctx: ConductorContext,
  nodeId: string,
): Promise<Record<string, unknown>> {
  const purpose = 'getting console information';
  return withNodeTask(ctx, nodeId, { shared: true, purpose }, async (task) => {
    if (!task.node.get('console_enabled')) throw new NodeConsoleNotEnabledError(task.uuid);
    await task.driver.console.validate(task);
    return { ...(await task.driver.console.getConsole(task)) };
  });
}

/**
 * Validates the console, and when `enabled` differs from the node's, takes the node, clears
 * last_error and starts or stops the console in the background (_set_console_mode); the same
 * state asked again changes nothing.
 */
export async function setConsoleMode(
  ctx: ConductorContext,
  nodeId: string,
  enabled: boolean,
): Promise<void> {
  await withNodeTask(
    ctx,
    nodeId,
    { shared: true, purpose: 'setting console mode' },
    async (task) => {
      await task.driver.console.validate(task);
      if (enabled === Boolean(task.node.get('console_enabled'))) {
        ctx.log.info(
          `No console action was triggered because the console is already ${enabled ? 'enabled' : 'disabled'}`,
        );
        return;
      }
      await task.upgradeLock();
      task.node.set('last_error', null);
      await task.save();
      task.spawnAfter({ name: '_set_console_mode', run: (t) => changeConsoleMode(t, enabled) });
    },
  );
}

async function changeConsoleMode(task: NodeTask, enabled: boolean): Promise<void> {
  try {
    if (enabled) await task.driver.console.startConsole(task);
    else await task.driver.console.stopConsole(task);
  } catch (error) {
    const op = enabled ? 'enabling' : 'disabling';
    await recordHistory(
      task.ctx,
      task.node,
      `Error ${op} the console on node ${task.uuid}. Reason: ${(error as Error).message}`,
      { eventType: HistoryEvent.CONSOLE },
    );
    await task.save();
    throw error;
  }
  task.node.set('console_enabled', enabled);
  task.node.set('last_error', null);
  await task.save();
}
