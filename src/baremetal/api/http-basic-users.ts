/**
 * The API's users under `auth_strategy = http_basic`: `[DEFAULT] http_basic_auth_user_file`,
 * checked when the API starts (readable, bcrypt entries only: ironic-lib's
 * validate_auth_file refuses to start otherwise) and read again for every request.
 */
import { readFile } from 'node:fs/promises';
import { HttpBasicAuthError, HttpBasicAuthenticator, validateUserFile } from '../../auth/index.ts';
import { ConfigFileError } from '../../service/index.ts';

export async function httpBasicAuthenticator(
  path: string,
  log?: (message: string) => void,
): Promise<HttpBasicAuthenticator> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new ConfigFileError(
      `[DEFAULT] http_basic_auth_user_file: Problem reading auth user file: ${path}`,
    );
  }
  try {
    validateUserFile(text);
  } catch (error) {
    if (error instanceof HttpBasicAuthError) {
      throw new ConfigFileError(`[DEFAULT] http_basic_auth_user_file ${path}: ${error.message}`);
    }
    throw error;
  }
  return new HttpBasicAuthenticator({
    readUserFile: () => readFile(path, 'utf8'),
    ...(log === undefined ? {} : { log }),
  });
}
