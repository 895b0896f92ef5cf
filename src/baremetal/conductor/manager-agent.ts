/**
 * The ramdisk agent's RPC methods (Ironic's get_node_with_token and heartbeat, RPC 1.4): the
 * first lookup of a node stores a new secret token, which every heartbeat must then carry.
 * The heartbeat itself is the node's deploy interface's, in the background; one without
 * (the fake deploy) only warns, as Ironic's base DeployInterface does.
 */
import {
  AGENT_TOKEN_KEY,
  AGENT_TOKEN_PREGENERATED_KEY,
  isAgentTokenPresent,
  isAgentTokenValid,
  MASKED_AGENT_TOKEN,
  newAgentToken,
} from '../common/agent-token.ts';
import { InvalidParameterError } from '../common/errors.ts';
import type { AgentHeartbeat } from '../drivers/interfaces/index.ts';
import type { NodeObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { deleteInternalInfo, internalInfo, setInternalInfo } from './node-info.ts';
import { withNodeTask } from './node-task.ts';

/**
 * The node with a new agent token stored (add_secret_token); a node that has one already is
 * answered with `******` in its place, unsaved, so a second lookup learns nothing usable.
 */
export async function getNodeWithToken(ctx: ConductorContext, nodeId: string): Promise<NodeObject> {
  return withNodeTask(ctx, nodeId, { shared: true, purpose: 'generate_token' }, async (task) => {
    if (isAgentTokenPresent(internalInfo(task.node))) {
      ctx.log.warn(
        `An agent token generation request is being refused as one is already present for node ${nodeId}`,
      );
      setInternalInfo(task.node, AGENT_TOKEN_KEY, MASKED_AGENT_TOKEN);
      return task.node;
    }
    await task.upgradeLock();
    setInternalInfo(task.node, AGENT_TOKEN_KEY, newAgentToken());
    deleteInternalInfo(task.node, AGENT_TOKEN_PREGENERATED_KEY);
    await task.save();
    return task.node;
  });
}

/**
 * A ramdisk's heartbeat: an agent that sent neither its version nor a status is refused, then
 * (on the node, shared) a token that is not the node's, then under `[agent] require_tls` a
 * callback URL that is not https. The deploy interface's heartbeat runs after the call returns.
 *
 * `agent_verify_ca` is not written to `[agent] certificates_path` as the real conductor does:
 * Baton has no deploy interface that talks to an agent to use it.
 */
export async function heartbeat(
  ctx: ConductorContext,
  nodeId: string,
  agentToken: string | null,
  beat: AgentHeartbeat,
): Promise<void> {
  if (beat.agentVersion === null && beat.agentStatus === null) {
    ctx.log.error(
      `Node ${nodeId} transmitted no version information which indicates the agent is incompatible with the ironic services and must be upgraded.`,
    );
    throw new InvalidParameterError(
      'Agent did not transmit a version, and a version is required. Please update the agent being used.',
    );
  }
  await withNodeTask(ctx, nodeId, { shared: true, purpose: 'heartbeat' }, async (task) => {
    if (!isAgentTokenValid(internalInfo(task.node), agentToken)) {
      ctx.log.error(`Invalid or missing agent_token received for node ${nodeId}`);
      throw new InvalidParameterError('Invalid or missing agent token received.');
    }
    if (ctx.settings.agentRequireTls && !beat.callbackUrl.startsWith('https://')) {
      ctx.log.error(
        `Rejecting callback_url ${beat.callbackUrl} for node ${task.uuid} because it does not use TLS`,
      );
      throw new InvalidParameterError('TLS is required by configuration');
    }
    task.spawnAfter({
      name: 'heartbeat',
      run: async (t) => {
        const deploy = t.driver.deploy;
        if (deploy.heartbeat !== undefined) {
          await deploy.heartbeat(t, beat);
          return;
        }
        ctx.log.warn(
          `Got heartbeat message from node ${t.uuid}, but the driver ${String(t.node.get('driver'))} does not support heartbeating`,
        );
      },
    });
  });
}
