/**
 * `baton config sample`: the commented sample of each service's config file, generated from
 * its option definitions. docs/config/ holds the generated files; this test fails when they
 * differ from what the code generates (CI runs it), and checks that the sample, uncommented,
 * is a valid file setting every option to its default.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { configSampleOf } from '../../src/cli/config-sample-command.ts';
import { runCli } from '../../src/cli/main.ts';
import {
  loadService,
  SERVICE_CONFIG_PROJECTS,
  SERVICE_NAMES,
  SERVICE_RELEASES,
  SERVICE_SUMMARIES,
} from '../../src/cli/service-catalog.ts';
import { parseIni } from '../../src/service/config-ini.ts';
import { defaultTextOf, readConfigOptions } from '../../src/service/config-options.ts';

const DOCS = new URL('../../docs/config/', import.meta.url);

describe('baton config sample', () => {
  for (const name of SERVICE_NAMES) {
    test(`${name}: docs/config/${name}.conf.sample is what the code generates`, async () => {
      const service = await loadService(name);
      const sample = configSampleOf(service);
      if (sample === undefined) return;
      let out = '';
      const status = await runCli(['config', 'sample', '--service', name], {
        out: (line) => (out += `${line}\n`),
        err: () => {},
      });
      assert.equal(status, 0);
      assert.equal(out, sample);
      const committed = readFileSync(new URL(`${name}.conf.sample`, DOCS), 'utf8');
      assert.equal(
        committed,
        sample,
        `docs/config/${name}.conf.sample is stale: run \`npx baton config sample --service ${name} > docs/config/${name}.conf.sample\``,
      );
    });

    test(`${name}: uncommented, the sample sets every option that has a default to it`, async () => {
      const service = await loadService(name);
      const schema = service.config;
      const sample = configSampleOf(service);
      if (schema === undefined || sample === undefined) return;
      const uncommented = sample.replace(/^#(\w+) =(.*)$/gm, (line, key: string, value: string) =>
        value.trim() === '<None>' ? line : `${key} =${value}`,
      );
      const values = readConfigOptions(parseIni(uncommented), schema.options, '/etc/baton');
      for (const option of schema.options) {
        const shown = defaultTextOf(option, schema.defaults);
        if (shown === undefined) {
          assert.equal(values[option.field], undefined, option.name);
          continue;
        }
        assert.deepEqual(values[option.field], schema.defaults[option.field], option.name);
      }
      const places = [...sample.matchAll(/^#(\w+) =/gm)].map((m) => m[1]);
      assert.equal(places.length, schema.options.length, 'each option once');
    });

    test(`${name}: the pin values --help lists are the definition's releases`, async () => {
      const service = await loadService(name);
      assert.deepEqual(
        [...(SERVICE_RELEASES[name] ?? [])].sort(),
        Object.keys(service.releases).sort(),
      );
    });

    test(`${name}: the light catalog's project, binaries and releases are the definition's`, async () => {
      const service = await loadService(name);
      assert.deepEqual(SERVICE_CONFIG_PROJECTS[name], service.configProject);
      assert.deepEqual(SERVICE_SUMMARIES[name]?.binaries, service.binaries);
      const { master: _, ...released } = service.releases;
      assert.deepEqual(SERVICE_SUMMARIES[name]?.releases, released);
    });
  }

  test('an unknown service is a usage error', async () => {
    let err = '';
    const status = await runCli(['config', 'sample', '--service', 'nova'], {
      out: () => {},
      err: (text) => (err += text),
    });
    assert.equal(status, 64);
    assert.match(err, /^baton: error: option '--service <name>' argument 'nova' is invalid/);
  });
});
