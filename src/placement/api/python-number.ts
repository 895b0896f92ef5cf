/** Numbers as Python types and writes them: shared (src/python-compat). */
export {
  PythonNumber,
  pythonFloat,
  pythonIntOfFloat,
  pythonJsonText,
  pythonLiteral,
} from '../../python-compat/python-number.ts';
