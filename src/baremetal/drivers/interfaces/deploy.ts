/**
 * The deploy interface (Ironic's DeployInterface): puts an instance on the node (through its
 * deploy steps, `deploy` among them) and takes it off again.
 */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface DeployInterface extends HardwareInterface<'deploy'> {
  prepare(task: DriverTask): Promise<void>;
  /** The `deploy` step: a state to wait in (`deploy wait`), or null when done. */
  deploy(task: DriverTask): Promise<string | null>;
  /** The provision state the node is left in (`deleted`). */
  tearDown(task: DriverTask): Promise<string>;
  cleanUp(task: DriverTask): Promise<void>;
  /** This conductor takes over an active node (another one looked after it). */
  takeOver(task: DriverTask): Promise<void>;
  /**
   * A heartbeat of the node's ramdisk agent (an agent-based deploy follows its ramdisk's
   * progress here). Absent: the base class's, which only warns (the fake deploy has none).
   */
  heartbeat?(task: DriverTask, heartbeat: AgentHeartbeat): Promise<void>;
}

/** What a ramdisk's heartbeat tells the conductor (the heartbeat RPC's arguments). */
export interface AgentHeartbeat {
  readonly callbackUrl: string;
  /** Absent from an agent older than 3.0.0, or from an API whose RPC cap is older. */
  readonly agentVersion: string | null;
  readonly agentVerifyCa: string | null;
  readonly agentStatus: string | null;
  readonly agentStatusMessage: string | null;
}
