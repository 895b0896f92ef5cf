/** The caps in force a process reports on /metrics. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capsFromMetrics } from '../../src/rehearsal/metrics-caps.ts';

describe('caps from /metrics', () => {
  it('reads the release, API max, RPC cap and object versions', () => {
    const text = [
      '# HELP baton_caps_in_force_info The caps in force',
      '# TYPE baton_caps_in_force_info gauge',
      'baton_caps_in_force_info{release="zed",api_max="1.80",rpc_cap="1.0"} 1',
      'baton_caps_object_version_info{object="Node",version="1.36"} 1',
      'baton_caps_object_version_info{object="Port",version="1.10"} 1',
      'baton_live_processes 4',
    ].join('\n');
    assert.deepEqual(capsFromMetrics(text), {
      release: 'zed',
      apiMax: '1.80',
      rpcCap: '1.0',
      objects: { Node: '1.36', Port: '1.10' },
    });
    assert.equal(capsFromMetrics('up 1\n'), undefined);
  });
});
