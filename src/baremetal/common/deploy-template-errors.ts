/** InvalidDeployTemplate (Ironic's, 400): a template the API refuses, with the reason. */
import { IronicError } from './ironic-error.ts';

export class InvalidDeployTemplateError extends IronicError {
  override name = 'InvalidDeployTemplateError';
  override get code() {
    return 400;
  }
  readonly err: string;
  constructor(err: string) {
    super(`Deploy template invalid: ${err}.`);
    this.err = err;
  }
}
