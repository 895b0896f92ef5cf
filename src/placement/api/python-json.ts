/** JSON read as Python reads it: shared with the bare metal service (src/python-compat). */
export {
  type PythonJsonResult,
  parsePythonJson,
  pythonJsonNumbers,
} from '../../python-compat/python-json.ts';
