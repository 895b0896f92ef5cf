"""Runs many `baremetal` command lines in one Python process.

Reads one JSON array of arguments per line on stdin; for each, builds the client application
afresh (as a new `baremetal` process would) with its output captured, and writes one JSON
line back: {"code": exit status, "stdout": ..., "stderr": ...}. Starting the client costs
about 1.5 s of CPU (its imports); a session of fifty commands pays it once instead of fifty
times. Driven by BaremetalBatch (test/support/baremetal-batch.ts).
"""
import contextlib
import io
import json
import logging
import sys

# Messages name the program by this (read when the client's modules load).
sys.argv[0] = 'baremetal'

from ironicclient.shell import main  # noqa: E402

answers = sys.stdout


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    # The client adds its console handler to the root logger on every run.
    root = logging.getLogger('')
    for handler in list(root.handlers):
        root.removeHandler(handler)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit:
            # What the interpreter would do with it: a message goes to stderr, status 1.
            if exit.code is None:
                code = 0
            elif isinstance(exit.code, int):
                code = exit.code
            else:
                err.write(f'{exit.code}\n')
                code = 1
    return {'code': code or 0, 'stdout': out.getvalue(), 'stderr': err.getvalue()}


for line in sys.stdin:
    answers.write(json.dumps(run(json.loads(line))) + '\n')
    answers.flush()
