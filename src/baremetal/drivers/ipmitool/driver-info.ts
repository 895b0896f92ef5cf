/**
 * A node's `driver_info` as the `ipmitool` interfaces read it (Ironic's `_parse_driver_info`),
 * with the real checks and error texts, and the properties `driver properties` documents.
 * Pure: nothing here talks to a BMC.
 */
import { pythonListRepr } from '../../common/driver-errors.ts';
import { InvalidParameterError, MissingParameterError } from '../../common/errors.ts';
import type { NodeObject } from '../../objects/index.ts';

export const VALID_PRIV_LEVELS = ['ADMINISTRATOR', 'CALLBACK', 'OPERATOR', 'USER'] as const;
export const VALID_PROTO_VERSIONS = ['2.0', '1.5'] as const;
const BRIDGING_TYPES = ['single', 'dual'];

export const REQUIRED_PROPERTIES: Readonly<Record<string, string>> = {
  ipmi_address: 'IP address or hostname of the node. Required.',
};

export const OPTIONAL_PROPERTIES: Readonly<Record<string, string>> = {
  ipmi_password: 'password. Optional.',
  ipmi_hex_kg_key:
    'Kg key for IPMIv2 authentication. The key is expected in hexadecimal format. Optional.',
  ipmi_port: 'remote IPMI RMCP port. Optional.',
  ipmi_priv_level: `privilege level; default is ADMINISTRATOR. One of ${VALID_PRIV_LEVELS.join(', ')}. Optional.`,
  ipmi_username: 'username; default is NULL user. Optional.',
  ipmi_bridging: 'bridging_type; default is "no". One of "single", "dual", "no". Optional.',
  ipmi_transit_channel:
    'transit channel for bridged request. Required only if ipmi_bridging is set to "dual".',
  ipmi_transit_address:
    'transit address for bridged request. Required only if ipmi_bridging is set to "dual".',
  ipmi_target_channel:
    'destination channel for bridged request. Required only if ipmi_bridging is set to "single" or "dual".',
  ipmi_target_address:
    'destination address for bridged request. Required only if ipmi_bridging is set to "single" or "dual".',
  ipmi_local_address:
    'local IPMB address for bridged requests. Used only if ipmi_bridging is set to "single" or "dual". Optional.',
  ipmi_protocol_version:
    'the version of the IPMI protocol; default is "2.0". One of "1.5", "2.0". Optional.',
  ipmi_force_boot_device:
    'Whether Ironic should specify the boot device to the BMC each time the server is turned on, eg. because the BMC is not capable of remembering the selected boot device across power cycles; default value is False. Optional.',
  ipmi_disable_boot_timeout:
    'By default ironic will send a raw IPMI command to disable the 60 second timeout for booting. Setting this option to False will NOT send that command on this node. The [ipmi]disable_boot_timeout will be used if this option is not set. Optional.',
  ipmi_cipher_suite:
    'The number of a cipher suite to use. Only 3 (AES-128 with SHA1) or 17 (AES-128 with SHA256) should ever be used; 17 is preferred. The default value depends on the ipmitool version, some recent versions have switched from 3 to 17.',
};

/** What the power and management interfaces document (the real COMMON_PROPERTIES). */
export const COMMON_PROPERTIES: Readonly<Record<string, string>> = {
  ...REQUIRED_PROPERTIES,
  ...OPTIONAL_PROPERTIES,
};

/** What a console interface adds (the real CONSOLE_PROPERTIES). */
export const CONSOLE_PROPERTIES: Readonly<Record<string, string>> = {
  ipmi_terminal_port: "node's UDP port to connect to. Only required for console access.",
};

/** The parameters ipmitool is run with for one node. */
export interface IpmiDriverInfo {
  readonly uuid: string;
  readonly address: string;
  readonly destPort: number | null;
  readonly username: string | null;
  /** Never on a command line: written to a 0600 file passed with `-f`. */
  readonly password: string;
  /** Passed with `-y` as the real one does; shown as `******` in log lines. */
  readonly hexKgKey: string | null;
  readonly terminalPort: number | null;
  readonly privLevel: string;
  readonly localAddress: string | null;
  readonly transitChannel: string | null;
  readonly transitAddress: string | null;
  readonly targetChannel: string | null;
  readonly targetAddress: string | null;
  readonly protocolVersion: string;
  readonly forceBootDevice: unknown;
  readonly cipherSuite: string | null;
}

/** Python's truthiness of a JSON value (what `not info.get(key)` tests). */
function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Python's str() of a JSON scalar, as the real messages print one. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const optionalString = (value: unknown) =>
  value === undefined || value === null ? null : pyStr(value);

/** utils.validate_network_port: an integer from 0 to 65535 (or its digits). */
export function validateNetworkPort(port: unknown, portName = 'Port'): number {
  const text = typeof port === 'number' || typeof port === 'string' ? String(port).trim() : '';
  if (/^[+-]?\d+$/.test(text)) {
    const value = Number(text);
    if (value >= 0 && value <= 65535) return value;
  }
  throw new InvalidParameterError(`${portName} "${pyStr(port)}" is not a valid port.`);
}

/** _parse_driver_info: the real checks in the real order, with their messages. */
export function parseDriverInfo(node: NodeObject): IpmiDriverInfo {
  const info = (node.peek('driver_info') ?? {}) as Record<string, unknown>;
  const internal = (node.peek('driver_internal_info') ?? {}) as Record<string, unknown>;
  const missing = Object.keys(REQUIRED_PROPERTIES).filter((key) => !truthy(info[key]));
  if (missing.length > 0) {
    throw new MissingParameterError(
      `Missing the following IPMI credentials in node's driver_info: ${pythonListRepr(missing)}.`,
    );
  }
  const protocolVersion = pyStr(info.ipmi_protocol_version ?? '2.0');
  if (!(VALID_PROTO_VERSIONS as readonly string[]).includes(protocolVersion)) {
    throw new InvalidParameterError(
      `Invalid IPMI protocol version value ${protocolVersion}, the valid value can be one of ${VALID_PROTO_VERSIONS.join(', ')}`,
    );
  }
  const terminal = truthy(info.ipmi_terminal_port)
    ? info.ipmi_terminal_port
    : internal.allocated_ipmi_terminal_port;
  const terminalPort =
    terminal === undefined || terminal === null
      ? null
      : validateNetworkPort(terminal, 'ipmi_terminal_port');
  const destPort =
    info.ipmi_port === undefined || info.ipmi_port === null
      ? null
      : validateNetworkPort(info.ipmi_port, 'ipmi_port');

  const bridging = info.ipmi_bridging ?? 'no';
  let localAddress = optionalString(info.ipmi_local_address);
  let transitChannel = optionalString(info.ipmi_transit_channel);
  let transitAddress = optionalString(info.ipmi_transit_address);
  let targetChannel = optionalString(info.ipmi_target_channel);
  let targetAddress = optionalString(info.ipmi_target_address);
  if (bridging === 'no') {
    localAddress = transitChannel = transitAddress = targetChannel = targetAddress = null;
  } else if (typeof bridging === 'string' && BRIDGING_TYPES.includes(bridging)) {
    // The installed ipmitool is taken to support bridging (it has since 1.8.12).
    const undefinedParams = [
      ['ipmi_target_channel', targetChannel],
      ['ipmi_target_address', targetAddress],
    ];
    if (bridging === 'dual') {
      undefinedParams.push(
        ['ipmi_transit_channel', transitChannel],
        ['ipmi_transit_address', transitAddress],
      );
    } else {
      transitChannel = transitAddress = null;
    }
    const notProvided = undefinedParams
      .filter(([, value]) => value === null)
      .map(([n]) => String(n));
    if (notProvided.length > 0) {
      throw new MissingParameterError(`${pythonListRepr(notProvided)} not provided`);
    }
  } else {
    throw new InvalidParameterError(
      `Invalid value for ipmi_bridging: ${pyStr(bridging)}, the valid value can be one of: ${pythonListRepr([...BRIDGING_TYPES, 'no'])}`,
    );
  }

  const privLevel = info.ipmi_priv_level ?? 'ADMINISTRATOR';
  if (
    typeof privLevel !== 'string' ||
    !(VALID_PRIV_LEVELS as readonly string[]).includes(privLevel)
  ) {
    throw new InvalidParameterError(
      `Invalid privilege level value:${pyStr(privLevel)}, the valid value can be one of ${VALID_PRIV_LEVELS.join(', ')}`,
    );
  }
  const hexKgKey = truthy(info.ipmi_hex_kg_key) ? pyStr(info.ipmi_hex_kg_key) : null;
  if (hexKgKey !== null && hexKgKey.length % 2 !== 0) {
    throw new InvalidParameterError('Number of ipmi_hex_kg_key characters is not even');
  }
  const cipher = info.ipmi_cipher_suite;
  let cipherSuite: string | null = null;
  if (cipher !== undefined && cipher !== null) {
    const text =
      typeof cipher === 'number' || typeof cipher === 'string' ? String(cipher).trim() : '';
    if (!/^[+-]?\d+$/.test(text)) {
      throw new InvalidParameterError(`Invalid cipher suite ${pyStr(cipher)}, expected a number`);
    }
    if (protocolVersion === '1.5') {
      throw new InvalidParameterError('Cipher suites cannot be used with IPMI 1.5');
    }
    cipherSuite = pyStr(cipher);
  }
  const username = truthy(info.ipmi_username) ? pyStr(info.ipmi_username) : null;
  return {
    uuid: String(node.peek('uuid')),
    address: pyStr(info.ipmi_address),
    destPort,
    username,
    password: info.ipmi_password === undefined ? '' : pyStr(info.ipmi_password),
    hexKgKey,
    terminalPort,
    privLevel,
    localAddress,
    transitChannel,
    transitAddress,
    targetChannel,
    targetAddress,
    protocolVersion,
    forceBootDevice: info.ipmi_force_boot_device ?? false,
    cipherSuite,
  };
}

/** oslo's strutils.bool_from_string (not strict): what counts as true in driver_info. */
export function boolFromString(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const text = pyStr(value).trim().toLowerCase();
  return ['1', 't', 'true', 'on', 'y', 'yes'].includes(text);
}
