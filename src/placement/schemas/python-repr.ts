/** Python's repr and pprint, shared with the bare metal service (src/python-compat). */
export { pythonPformat, pythonRepr } from '../../python-compat/python-repr.ts';
