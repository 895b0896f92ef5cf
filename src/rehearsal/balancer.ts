/**
 * The real HAProxy in front of the API processes: started in the foreground (`-db`) on the
 * configuration the rehearsal wrote, its servers' states read from its admin socket.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  type BalancerConfig,
  type BalancerServerState,
  haproxyConfigText,
  parseShowStat,
} from './cluster-config.ts';
import type { RunningProcess } from './processes.ts';

export const HAPROXY = process.env.BATON_HAPROXY ?? 'haproxy';

export interface Balancer {
  readonly url: string;
  readonly process: RunningProcess;
  states(): Promise<BalancerServerState[]>;
  /** Waits until the server is in `status` (UP, DOWN …) as HAProxy sees it. */
  waitFor(server: string, status: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = connect(socket);
    let text = '';
    connection.on('data', (chunk) => {
      text += chunk;
    });
    connection.on('end', () => resolve(text));
    connection.on('error', reject);
    connection.write(`${command}\n`);
  });
}

export async function startBalancer(config: BalancerConfig, dir: string): Promise<Balancer> {
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, haproxyConfigText(config));
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      output += `${error.message} (install Debian's haproxy)`;
      resolve(127);
    });
    child.on('exit', (code) => resolve(code ?? 0));
  });
  const running: RunningProcess = { name: 'haproxy', child, output: () => output, exited };
  const states = async () => parseShowStat(await adminCommand(config.statsSocket, 'show stat'));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const gone = await Promise.race([exited, new Promise((r) => setTimeout(r, 100, 'alive'))]);
    if (gone !== 'alive') throw new Error(`haproxy exited ${gone}: ${output.trim()}`);
    try {
      await states();
      break;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`haproxy did not start: ${String(error)} ${output}`);
    }
  }
  return {
    url: `http://127.0.0.1:${config.frontendPort}`,
    process: running,
    states,
    async waitFor(server, status, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const seen = (await states()).find((s) => s.server === server)?.status;
        if (seen?.startsWith(status)) return;
        if (Date.now() > until) throw new Error(`haproxy: ${server} is ${seen}, not ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
