/** The rehearsal on MariaDB with RabbitMQ as the RPC transport (support/server-rehearsal.ts). */
import { describe } from 'node:test';
import { itRehearsesOn } from './support/server-rehearsal.ts';

describe('rehearsal on MariaDB', () => {
  itRehearsesOn('mysql', 'amqp');
});
