/**
 * Deploying and tearing down, as the real `conductor/deployments.py` and the manager's
 * `_do_node_tear_down` do them: a deploy checks the node's instance traits and the steps of the
 * user and of the matching deploy templates, prepares, gathers the deploy steps (the node's
 * interfaces' enabled ones, fake hardware's being the fake deploy interface's `deploy`, with
 * the user's and the templates', deploy-steps.ts), runs them, records the conductor as the
 * node's affinity and ends `active`; a tear-down cleans up, forgets the instance
 * (instance_info, instance_uuid, the image bookkeeping), deletes the node's allocation and goes
 * on to cleaning.
 */
import { fastTrackAble } from '../common/agent-token.ts';
import {
  InstanceDeployFailureError,
  InvalidParameterError,
  InvalidStateRequestedError,
  IronicError,
  NodeInMaintenanceError,
  NodeProtectedError,
} from '../common/errors.ts';
import { ProvisionState as S } from '../common/provision-states.ts';
import { deployStepsOf, executeStep } from '../drivers/node-driver.ts';
import { deleteNodeAllocation } from './allocation-cleanup.ts';
import { doNodeClean } from './clean-work.ts';
import { allDeploymentSteps, validatedUserDeploySteps } from './deploy-steps.ts';
import {
  templateDeploySteps,
  validateDeployStepsAndTemplates,
  validateInstanceInfoTraits,
} from './deploy-templates.ts';
import { deployingErrorHandler } from './error-handlers.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import {
  deleteInstanceInfo,
  deleteInternalInfo,
  internalInfo,
  setInstanceInfo,
  setInternalInfo,
  updateImageType,
  wipeDeployInternalInfo,
} from './node-info.ts';
import type { NodeTask } from './node-task.ts';

const GLANCE_ID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export interface DeployRequest {
  readonly event: 'deploy' | 'rebuild';
  readonly configdrive?: unknown;
  readonly deploySteps?: readonly Record<string, unknown>[];
}

/** deployments.validate_node: maintenance, protection, the state machine. */
export function validateNodeForDeploy(task: NodeTask, event: 'deploy' | 'rebuild'): void {
  if (task.node.get('maintenance')) throw new NodeInMaintenanceError('provisioning', task.uuid);
  if (event === 'rebuild' && task.node.get('protected')) throw new NodeProtectedError(task.uuid);
  if (!task.isActionable(event)) {
    throw new InvalidStateRequestedError(event, task.uuid, task.provisionState);
  }
}

/** deployments.start_deploy: validates, moves the node on, the deploy continues in the pool. */
export async function startDeploy(task: NodeTask, request: DeployRequest): Promise<void> {
  const node = task.node;
  if (request.event === 'rebuild') {
    const source = (node.get('instance_info') as Record<string, unknown> | null)?.image_source;
    // A Glance image may have changed its kernel and ramdisk since the last deploy.
    if (typeof source === 'string' && (GLANCE_ID.test(source) || source.startsWith('glance://'))) {
      deleteInstanceInfo(node, 'kernel', 'ramdisk');
    }
  }
  if (updateImageType(node)) await task.save();
  try {
    await task.driver.power.validate(task);
    await task.driver.deploy.validate(task);
    validateInstanceInfoTraits(node);
    await validateDeployStepsAndTemplates(task.ctx, node, task.driver, request.deploySteps);
  } catch (error) {
    // The real one wraps InvalidParameterValue only, keeping its status.
    if (!(error instanceof InvalidParameterError)) throw error;
    throw new InstanceDeployFailureError(error.message, {
      message: `Failed to validate deploy or power info for node ${task.uuid}: ${error.message}`,
      code: error.code,
    });
  }
  await task.requestEvent(request.event, request.event, {
    revertOnNoWorker: true,
    work: { name: 'do_node_deploy', run: (t) => doNodeDeploy(t, request) },
  });
}

/** set_node_deployment_steps' list: the driver's, the user's and the templates' steps. */
async function deploymentSteps(task: NodeTask): Promise<Record<string, unknown>[]> {
  const kept = internalInfo(task.node).user_deploy_steps as Record<string, unknown>[] | undefined;
  const user = validatedUserDeploySteps(task.driver, kept);
  const templates = await templateDeploySteps(task.ctx, task.node, task.driver);
  return allDeploymentSteps(task.driver, user, templates);
}

/** deployments.do_node_deploy. */
export async function doNodeDeploy(task: NodeTask, request: DeployRequest): Promise<void> {
  const node = task.node;
  wipeDeployInternalInfo(node, fastTrackAble(node, task.ctx.settings.fastTrack));
  if (request.configdrive !== undefined && request.configdrive !== null) {
    // Kept in instance_info, as the real one does without an object store.
    setInstanceInfo(node, 'configdrive', request.configdrive);
  }
  try {
    await task.driver.deploy.prepare(task);
  } catch (error) {
    await deployingErrorHandler(task, `Failed to prepare to deploy: ${(error as Error).message}`, {
      cleanUp: false,
    });
    return;
  }
  if (request.deploySteps !== undefined && request.deploySteps.length > 0) {
    setInternalInfo(node, 'user_deploy_steps', request.deploySteps);
    await task.save();
  }
  let steps: Record<string, unknown>[];
  try {
    steps = await deploymentSteps(task);
  } catch (error) {
    // Checked when the deploy started; a template changed since fails it here.
    if (!(error instanceof IronicError)) throw error;
    await deployingErrorHandler(
      task,
      `Cannot get deploy steps; failed to deploy: ${error.message}`,
    );
    return;
  }
  setInternalInfo(task.node, 'deploy_steps', steps);
  task.node.set('deploy_step', {});
  setInternalInfo(task.node, 'deploy_step_index', null);
  await task.save();
  if (steps.length === 0) {
    await deployingErrorHandler(task, 'No deploy steps returned by the driver');
    return;
  }
  const conductorId = task.ctx.conductorId;
  if (conductorId !== undefined) {
    task.node.set('conductor_affinity', conductorId);
    await task.save();
  }
  await doNextDeployStep(task, 0);
}

/** deployments.do_next_deploy_step. */
async function doNextDeployStep(task: NodeTask, index: number): Promise<void> {
  const steps = (internalInfo(task.node).deploy_steps as Record<string, unknown>[] | null) ?? [];
  for (let i = index; i < steps.length; i++) {
    const step = steps[i] as Record<string, unknown>;
    task.node.set('deploy_step', step);
    setInternalInfo(task.node, 'deploy_step_index', i);
    await task.save();
    try {
      const driverStep = deployStepsOf(task.driver).find(
        (known) => known.interface === step.interface && known.step === step.step,
      );
      if (driverStep === undefined) {
        throw new InvalidParameterError(
          `unknown step ${String(step.interface)}.${String(step.step)}`,
        );
      }
      const args = (step.args as Record<string, unknown> | undefined) ?? {};
      await executeStep(task.driver, task, driverStep, args);
    } catch (error) {
      await deployingErrorHandler(
        task,
        `Deploy step ${String(step.interface)}.${String(step.step)} failed: ${(error as Error).message}.`,
      );
      return;
    }
  }
  task.node.set('deploy_step', {});
  wipeDeployInternalInfo(task.node, fastTrackAble(task.node, task.ctx.settings.fastTrack));
  await task.save();
  await task.processEvent('done');
}

const RESCUE_STATES: readonly string[] = [S.RESCUEWAIT, S.RESCUE, S.UNRESCUEFAIL, S.RESCUEFAIL];

/** The manager's _do_node_tear_down: tear down, forget the instance, then clean. */
export async function doNodeTearDown(task: NodeTask, initialState: string): Promise<void> {
  let failure: unknown;
  try {
    if (RESCUE_STATES.includes(initialState)) await task.driver.rescue.cleanUp(task);
    // The console is stopped; console_enabled stays true for the next deployment.
    if (task.node.get('console_enabled')) await task.driver.console.stopConsole(task);
    await task.driver.deploy.cleanUp(task);
    await task.driver.deploy.tearDown(task);
  } catch (error) {
    failure = error;
    await recordHistory(task.ctx, task.node, `Failed to tear down: ${(error as Error).message}`, {
      eventType: HistoryEvent.UNPROVISION,
    });
    await task.processEvent('fail');
  }
  const node = task.node;
  node.set('instance_info', {});
  node.set('instance_uuid', null);
  wipeDeployInternalInfo(node, fastTrackAble(node, task.ctx.settings.fastTrack));
  deleteInternalInfo(
    node,
    'instance',
    'root_uuid_or_disk_id',
    'is_whole_disk_image',
    'is_source_a_path',
    'deploy_boot_mode',
  );
  if (internalInfo(node).automatic_lessee) {
    node.set('lessee', null);
    deleteInternalInfo(node, 'automatic_lessee');
  }
  await task.save();
  // Its allocation goes with the instance (and takes instance_uuid and allocation_id along).
  await deleteNodeAllocation(task);
  if (failure !== undefined) throw failure;
  await task.processEvent('clean');
  await doNodeClean(task);
}
