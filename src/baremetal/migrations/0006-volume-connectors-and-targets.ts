/**
 * Volume connectors and volume targets (API 1.32, VolumeConnector 1.0 and VolumeTarget 1.0), as
 * Ironic 21.4's models have them: columns, lengths, the unique constraints under Ironic's names
 * (a connector's type and connector ID; a target's node and boot index) and the foreign keys to
 * nodes. Baton's zed had neither; the real one did. New tables only: the previous release's code
 * runs on the result unchanged.
 */
import type { Column, Migration } from '../../db/migrations/index.ts';

const base: Column[] = [
  { name: 'created_at', type: 'datetime' },
  { name: 'updated_at', type: 'datetime' },
  { name: 'version', type: 'string(15)' },
  { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
  { name: 'uuid', type: 'string(36)' },
  { name: 'node_id', type: 'integer' },
];
const nodeReference = { columns: ['node_id'], references: { table: 'nodes', columns: ['id'] } };

export const volumeConnectorsAndTargets: Migration = {
  id: '0006_volume_connectors_and_targets',
  release: 'antelope',
  description: 'Ironic 21.4: the volume_connectors and volume_targets tables (API 1.32)',
  operations: [
    {
      op: 'createTable',
      table: 'volume_connectors',
      columns: [
        ...base,
        { name: 'type', type: 'string(32)' },
        { name: 'connector_id', type: 'string(255)' },
        // JSON text, as Ironic's JsonEncodedDict.
        { name: 'extra', type: 'text' },
      ],
      unique: [
        { name: 'uniq_volumeconnectors0uuid', columns: ['uuid'] },
        { name: 'uniq_volumeconnectors0type0connector_id', columns: ['type', 'connector_id'] },
      ],
      foreignKeys: [nodeReference],
    },
    {
      op: 'createTable',
      table: 'volume_targets',
      columns: [
        ...base,
        { name: 'volume_type', type: 'string(64)' },
        { name: 'properties', type: 'text' },
        { name: 'boot_index', type: 'integer' },
        { name: 'volume_id', type: 'string(36)' },
        { name: 'extra', type: 'text' },
      ],
      unique: [
        { name: 'uniq_volumetargets0uuid', columns: ['uuid'] },
        { name: 'uniq_volumetargets0node_id0boot_index', columns: ['node_id', 'boot_index'] },
      ],
      foreignKeys: [nodeReference],
    },
  ],
};
