/**
 * The ipmitool interfaces' driver_info checks (Ironic 21.4.4's `_parse_driver_info`), pure: the
 * real messages for a missing address, a bad port, protocol, privilege, bridging, Kg key and
 * cipher suite, and what a good one parses to; `sdr -v` parsed into sensor data. The texts are the real ones from
 * ironic/drivers/modules/ipmitool.py and ironic/common/utils.py at tag 21.4.4.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  InvalidParameterError,
  MissingParameterError,
} from '../../../../src/baremetal/common/errors.ts';
import { parseDriverInfo } from '../../../../src/baremetal/drivers/ipmitool/driver-info.ts';
import { IPMI_DEFAULTS } from '../../../../src/baremetal/drivers/ipmitool/ipmi-settings.ts';
import { parseSensorsData } from '../../../../src/baremetal/drivers/ipmitool/ipmitool-management.ts';
import { ipmitoolArgs } from '../../../../src/baremetal/drivers/ipmitool/ipmitool-runner.ts';
import { Node } from '../../../../src/baremetal/objects/index.ts';

const UUID = randomUUID();
const nodeWith = (driverInfo: Record<string, unknown>) =>
  Node.create({ uuid: UUID, driver: 'ipmi', driver_info: driverInfo } as never);

function refusal(driverInfo: Record<string, unknown>) {
  try {
    parseDriverInfo(nodeWith(driverInfo));
  } catch (error) {
    return error as Error;
  }
  assert.fail(`accepted ${JSON.stringify(driverInfo)}`);
}

describe('ipmitool driver_info', () => {
  it('needs ipmi_address, in the real words', () => {
    for (const info of [{}, { ipmi_address: '' }, { ipmi_username: 'admin' }]) {
      const error = refusal(info);
      assert.ok(error instanceof MissingParameterError);
      assert.equal(
        error.message,
        "Missing the following IPMI credentials in node's driver_info: ['ipmi_address'].",
      );
    }
  });

  it('refuses what the real one refuses, with its messages', () => {
    const base = { ipmi_address: '10.0.0.1' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ipmi_port: 'abc' }, 'ipmi_port "abc" is not a valid port.'],
      [{ ipmi_port: 70000 }, 'ipmi_port "70000" is not a valid port.'],
      [{ ipmi_terminal_port: -1 }, 'ipmi_terminal_port "-1" is not a valid port.'],
      [
        { ipmi_protocol_version: '3.0' },
        'Invalid IPMI protocol version value 3.0, the valid value can be one of 2.0, 1.5',
      ],
      [
        { ipmi_priv_level: 'ROOT' },
        'Invalid privilege level value:ROOT, the valid value can be one of ADMINISTRATOR, CALLBACK, OPERATOR, USER',
      ],
      [
        { ipmi_bridging: 'triple' },
        "Invalid value for ipmi_bridging: triple, the valid value can be one of: ['single', 'dual', 'no']",
      ],
      [{ ipmi_bridging: 'single' }, "['ipmi_target_channel', 'ipmi_target_address'] not provided"],
      [
        { ipmi_bridging: 'dual', ipmi_target_channel: 0, ipmi_target_address: '0x20' },
        "['ipmi_transit_channel', 'ipmi_transit_address'] not provided",
      ],
      [{ ipmi_hex_kg_key: 'abc' }, 'Number of ipmi_hex_kg_key characters is not even'],
      [{ ipmi_cipher_suite: 'fast' }, 'Invalid cipher suite fast, expected a number'],
      [
        { ipmi_cipher_suite: 3, ipmi_protocol_version: '1.5' },
        'Cipher suites cannot be used with IPMI 1.5',
      ],
    ];
    for (const [extra, message] of cases) {
      const error = refusal({ ...base, ...extra });
      assert.ok(error instanceof InvalidParameterError, message);
      assert.equal(error.message, message);
    }
  });

  it('parses a good one to the ipmitool arguments the real one builds, without the password', () => {
    const info = parseDriverInfo(
      nodeWith({
        ipmi_address: 'bmc.example',
        ipmi_port: '6230',
        ipmi_username: 'admin',
        ipmi_password: 's3cret',
        ipmi_priv_level: 'OPERATOR',
        ipmi_cipher_suite: 17,
        ipmi_bridging: 'dual',
        ipmi_local_address: '0x81',
        ipmi_transit_channel: 0,
        ipmi_transit_address: '0x82',
        ipmi_target_channel: 7,
        ipmi_target_address: '0x72',
      }),
    );
    assert.equal(info.destPort, 6230);
    assert.equal(info.password, 's3cret');
    const args = ipmitoolArgs(info, { ...IPMI_DEFAULTS, minCommandInterval: 5 });
    assert.deepEqual(args, [
      '-I',
      'lanplus',
      '-H',
      'bmc.example',
      '-L',
      'OPERATOR',
      '-p',
      '6230',
      '-U',
      'admin',
      '-C',
      '17',
      '-m',
      '0x81',
      '-B',
      '0',
      '-T',
      '0x82',
      '-b',
      '7',
      '-t',
      '0x72',
      '-R',
      '1',
      '-N',
      '5',
    ]);
    assert.ok(!args.includes('s3cret'));
    // IPMI 1.5 is `-I lan`; no bridging options without ipmi_bridging.
    const lan = parseDriverInfo(
      nodeWith({ ipmi_address: '10.0.0.1', ipmi_protocol_version: '1.5', ipmi_target_channel: 1 }),
    );
    assert.deepEqual(ipmitoolArgs(lan, IPMI_DEFAULTS).slice(0, 6), [
      '-I',
      'lan',
      '-H',
      '10.0.0.1',
      '-L',
      'ADMINISTRATOR',
    ]);
    assert.ok(!ipmitoolArgs(lan, IPMI_DEFAULTS).includes('-b'));
  });
});

describe('ipmitool sensor data', () => {
  // `ipmitool sdr -v` as ipmitool prints it (records separated by a blank line).
  const SDR = [
    'Sensor ID              : Temp (0x1)',
    ' Entity ID             : 3.1 (Processor)',
    ' Sensor Type (Threshold)  : Temperature (0x01)',
    ' Sensor Reading        : 43 (+/- 0) degrees C',
    ' Status                : ok',
    ' Upper critical        : 90.000',
    '',
    'Sensor ID              : Fan 1 (0x30)',
    ' Entity ID             : 29.1 (Fan Device)',
    ' Sensor Type (Threshold)  : Fan (0x04)',
    ' Sensor Reading        : 4400 (+/- 75) RPM',
    '',
    'Sensor ID              : PS1 Status (0x50)',
    ' Sensor Type (Discrete): Power Supply (0x08)',
    ' States Asserted       : Power Supply',
    '',
  ].join('\n');

  it('groups the records with a reading by type, then by sensor ID', () => {
    const parsed = parseSensorsData(UUID, SDR);
    assert.deepEqual(Object.keys(parsed), ['Temperature', 'Fan']);
    assert.equal(parsed.Temperature?.['Temp (0x1)']?.['Sensor Reading'], '43 (+/- 0) degrees C');
    assert.equal(parsed.Fan?.['Fan 1 (0x30)']?.['Entity ID'], '29.1 (Fan Device)');
    assert.deepEqual(parseSensorsData(UUID, ''), {});
  });

  it('refuses records it cannot type, or nothing with a reading, in the real words', () => {
    assert.throws(() => parseSensorsData(UUID, 'Sensor ID : X\n Status : ok\n'), {
      name: 'FailedToParseSensorDataError',
      message: new RegExp(
        `^Failed to parse sensor data for node ${UUID}\\. Error: parse ipmi sensor data failed, unknown sensor type data`,
      ),
    });
    assert.throws(
      () => parseSensorsData(UUID, 'Sensor ID : X\n Sensor Type (Discrete): Fan (0x04)\n'),
      {
        message: /parse ipmi sensor data failed, get nothing with input data/,
      },
    );
  });
});
