"""What the real keystonemiddleware auth_token presents to the service behind it.

Reads JSON on stdin: {"conf": {<[keystone_authtoken] options>}, "requests": [{"path",
"method", "headers"}]}. Runs each request through auth_token (the installed
python3-keystonemiddleware) in front of an app that answers the request headers it was handed;
prints, per request, {"status", "headers" (the response's), "body", "seen" (the headers the app
saw, lower case)}. Run with /usr/bin/python3.
"""
import json
import sys

import webob
import webob.dec
from keystonemiddleware import auth_token


@webob.dec.wsgify
def echo(request):
    seen = {}
    for key, value in request.environ.items():
        if key.startswith('HTTP_') and value is not None:
            seen[key[5:].replace('_', '-').lower()] = value
    return webob.Response(json=seen)


def main():
    given = json.load(sys.stdin)
    middleware = auth_token.AuthProtocol(echo, dict(given['conf']))
    answers = []
    for spec in given['requests']:
        request = webob.Request.blank(spec.get('path', '/'), method=spec.get('method', 'GET'),
                                      headers=spec.get('headers', {}))
        response = request.get_response(middleware)
        seen = response.json if response.status_int == 200 else None
        answers.append({
            'status': response.status_int,
            'headers': dict(response.headers),
            'body': response.text if response.status_int != 200 else None,
            'seen': seen,
        })
    json.dump(answers, sys.stdout)


if __name__ == '__main__':
    main()
