/** The files the rehearsal writes: process configs and the balancer's, and HAProxy's stat CSV. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  detectionSeconds,
  HEALTH_CHECK,
  haproxyConfigText,
  parseShowStat,
  processConfigText,
} from '../../src/rehearsal/cluster-config.ts';
import { DRAIN_WAIT_SECONDS } from '../../src/rehearsal/rehearsal.ts';

describe('cluster config', () => {
  it('writes an API config with its host, pin, port, drain wait and metrics port', () => {
    const text = processConfigText({
      host: 'r1-api1-pinned',
      databaseUrl: 'sqlite:/tmp/x.sqlite',
      rpc: 'amqp',
      amqpUrl: 'amqp://guest:guest@127.0.0.1:5672/',
      exchange: 'baton-r1',
      pin: 'zed',
      metricsPort: 9100,
      apiPort: 6385,
      drainWait: 4,
      logFile: '/tmp/api1.log',
    });
    for (const line of [
      'host = r1-api1-pinned',
      'pin_release_version = zed',
      'rpc_transport = amqp',
      'rpc_exchange = baton-r1',
      'connection = sqlite:/tmp/x.sqlite',
      'port = 6385',
      'drain_wait = 4',
      'bind_port = 9100',
      'hash_ring_reset_interval = 2',
      'heartbeat_interval = 2',
    ]) {
      assert.ok(text.split('\n').includes(line), `${line} in\n${text}`);
    }
  });

  it('drains an API for longer than HAProxy takes to see it fail', () => {
    assert.ok(DRAIN_WAIT_SECONDS > detectionSeconds(HEALTH_CHECK));
  });

  it('checks /healthcheck on every API server', () => {
    const text = haproxyConfigText({
      frontendPort: 8000,
      apis: [
        { name: 'api1', port: 6385 },
        { name: 'api2', port: 6386 },
      ],
      statsSocket: '/tmp/h.sock',
    });
    assert.match(text, /http-check send meth GET uri \/healthcheck/);
    assert.match(text, /server api1 127\.0\.0\.1:6385 check/);
    assert.match(text, /server api2 127\.0\.0\.1:6386 check/);
    assert.match(text, /bind 127\.0\.0\.1:8000/);
  });

  it("reads the servers' states from `show stat`", () => {
    const csv = [
      '# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,status',
      'ironic,FRONTEND,,,0,1,2000,3,0,0,0,0,0,,,,,OPEN',
      'ironic-api,api1,0,0,0,1,,1,0,0,,0,,0,0,0,0,UP',
      'ironic-api,api2,0,0,0,1,,1,0,0,,0,,0,0,0,0,DOWN 1/2',
      'ironic-api,BACKEND,0,0,0,1,200,2,0,0,0,0,,0,0,0,0,UP',
      '',
    ].join('\n');
    assert.deepEqual(parseShowStat(csv), [
      { backend: 'ironic-api', server: 'api1', status: 'UP' },
      { backend: 'ironic-api', server: 'api2', status: 'DOWN 1/2' },
    ]);
  });
});
