#!/usr/bin/env python3
"""A small object server for tests/integration/t_http.sh (stdlib only): PUT, GET and DELETE
of whole objects kept in memory, spoken as WebDAV, Swift or S3 (path style), with the
server's own accounting written to a JSON file after every request.

Authentication, by what the request carries:
- Authorization: AWS4-HMAC-SHA256 ...: the SigV4 signature is computed here again from the
  request as received (hashlib/hmac, independently of iobench's C code) with --keyid/--key
  and compared; the payload's SHA-256 is checked against x-amz-content-sha256. A wrong key
  id or signature is 403 with S3's XML error (InvalidAccessKeyId, SignatureDoesNotMatch).
- Authorization: Basic ...: --user/--password (401 when wrong).
- X-Auth-Token: --token (401 when wrong).
- nothing: allowed unless --require-auth (401).

Accounting (--accounting FILE): per method, the requests by status and the body bytes of
the successful ones (PUT: received, GET: sent, DELETE: the deleted objects'), the objects stored and their bytes, and the
names of the objects stored.

Usage: http_server.py --port-file F --accounting A [--tls CERT KEY] [--keyid ID --key K
[--region R]] [--user U --password P] [--token T] [--require-auth] [--lifetime S]
It binds 127.0.0.1 on a free port, writes the port to --port-file, and exits after
--lifetime seconds (default 120) if nobody stops it first."""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import os
import re
import ssl
import threading
import urllib.parse

ARGS = None
LOCK = threading.Lock()
STORE = {}
ACCT = {'PUT': {}, 'GET': {}, 'DELETE': {}, 'OTHER': {}}
BYTES = {'PUT': 0, 'GET': 0, 'DELETE': 0}


def write_accounting():
    doc = {m: {'status': dict(v), 'ok': sum(n for s, n in v.items() if s.startswith('2')),
               'bytes': BYTES.get(m, 0)} for m, v in ACCT.items()}
    doc['objects'] = len(STORE)
    doc['stored_bytes'] = sum(len(b) for b in STORE.values())
    doc['names'] = sorted(STORE)
    tmp = ARGS.accounting + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    os.replace(tmp, ARGS.accounting)


def sign(key, msg):
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


def sigv4_expected(method, raw_path, headers, signed, date, region, secret):
    """The signature of this request, as AWS's SigV4 documentation defines it."""
    path, _, query = raw_path.partition('?')
    q = '&'.join(sorted(query.split('&'))) if query else ''
    canon_headers = ''.join('%s:%s\n' % (h, ' '.join(headers.get(h, '').split())) for h in signed)
    canon = '\n'.join([method, path, q, canon_headers, ';'.join(signed),
                       headers.get('x-amz-content-sha256', '')])
    amzdate = headers.get('x-amz-date', '')
    scope = '%s/%s/s3/aws4_request' % (date, region)
    to_sign = '\n'.join(['AWS4-HMAC-SHA256', amzdate, scope, hashlib.sha256(canon.encode()).hexdigest()])
    k = sign(('AWS4' + secret).encode(), date)
    for part in (region, 's3', 'aws4_request'):
        k = sign(k, part)
    return hmac.new(k, to_sign.encode(), hashlib.sha256).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    disable_nagle_algorithm = True  # headers and body go out at once, no delayed-ACK stalls

    def log_message(self, *a):
        pass

    def answer(self, method, status, body=b'', ctype='application/xml'):
        self.send_response(status)
        self.send_header('Content-Length', str(len(body)))
        if body:
            self.send_header('Content-Type', ctype)
        self.end_headers()
        if body and method != 'HEAD':
            self.wfile.write(body)
        key = method if method in ACCT else 'OTHER'
        with LOCK:
            ACCT[key][str(status)] = ACCT[key].get(str(status), 0) + 1
            write_accounting()

    def s3_error(self, method, status, code):
        body = ('<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code></Error>' % code).encode()
        self.answer(method, status, body)

    def check_s3(self, body):
        """None when the SigV4 signature is right, else (status, S3 error code)."""
        auth = self.headers.get('Authorization', '')
        m = re.match(r'AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/s3/aws4_request, '
                     r'SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$', auth)
        if not m:
            return 400, 'AuthorizationHeaderMalformed'
        keyid, date, region, signed, sig = m.groups()
        if keyid != ARGS.keyid:
            return 403, 'InvalidAccessKeyId'
        if region not in ARGS.region.split(','):
            return 400, 'AuthorizationHeaderMalformed'
        signed = signed.split(';')
        headers = {k.lower(): v for k, v in self.headers.items()}
        if 'host' not in signed or 'x-amz-date' not in signed or 'x-amz-content-sha256' not in signed:
            return 403, 'AccessDenied'
        if not headers.get('x-amz-date', '').startswith(date):
            return 403, 'SignatureDoesNotMatch'
        want = sigv4_expected(self.command, self.path, headers, signed, date, region, ARGS.key)
        if not hmac.compare_digest(want, sig):
            return 403, 'SignatureDoesNotMatch'
        if headers['x-amz-content-sha256'] != hashlib.sha256(body).hexdigest():
            return 400, 'XAmzContentSHA256Mismatch'
        return None

    def authorized(self, body):
        auth = self.headers.get('Authorization', '')
        if auth.startswith('AWS4-HMAC-SHA256'):
            return self.check_s3(body)
        if auth.startswith('Basic '):
            want = base64.b64encode(('%s:%s' % (ARGS.user, ARGS.password)).encode()).decode()
            return None if ARGS.user is not None and auth[6:] == want else (401, 'Unauthorized')
        if 'X-Auth-Token' in self.headers:
            return None if self.headers['X-Auth-Token'] == ARGS.token else (401, 'Unauthorized')
        return (401, 'Unauthorized') if ARGS.require_auth else None

    def handle_any(self):
        method = self.command
        n = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(n) if n else b''
        denied = self.authorized(body)
        if denied:
            return self.s3_error(method, *denied)
        name = urllib.parse.unquote(self.path.partition('?')[0])
        if method == 'PUT':
            with LOCK:
                existed = name in STORE
                STORE[name] = body
                BYTES['PUT'] += len(body)
            return self.answer(method, 204 if existed and not self.headers.get('x-amz-date') else
                               200 if self.headers.get('x-amz-date') else 201)
        if method == 'GET':
            with LOCK:
                data = STORE.get(name)
                if data is not None:
                    BYTES['GET'] += len(data)
            if data is None:
                return self.s3_error(method, 404, 'NoSuchKey')
            return self.answer(method, 200, data, 'application/octet-stream')
        if method == 'DELETE':
            with LOCK:
                data = STORE.pop(name, None)
                existed = data is not None
                BYTES['DELETE'] += len(data or b'')
            return self.answer(method, 204 if existed or self.headers.get('x-amz-date') else 404)
        return self.answer(method, 405)

    do_PUT = do_GET = do_DELETE = do_POST = do_HEAD = handle_any


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument('--port-file', required=True)
    p.add_argument('--accounting', required=True)
    p.add_argument('--tls', nargs=2, metavar=('CERT', 'KEY'))
    p.add_argument('--keyid')
    p.add_argument('--key')
    p.add_argument('--region', default='us-east-1', help='the regions accepted, comma-separated')
    p.add_argument('--user')
    p.add_argument('--password')
    p.add_argument('--token')
    p.add_argument('--require-auth', action='store_true')
    p.add_argument('--lifetime', type=float, default=120)
    ARGS = p.parse_args()
    http.server.ThreadingHTTPServer.request_queue_size = 128  # 16 jobs connect at once (default 5)
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    srv.daemon_threads = True
    if ARGS.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*ARGS.tls)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    with LOCK:
        write_accounting()
    threading.Timer(ARGS.lifetime, srv.shutdown).start()
    tmp = ARGS.port_file + '.tmp'
    with open(tmp, 'w') as f:
        f.write('%d\n' % srv.server_address[1])
    os.replace(tmp, ARGS.port_file)
    srv.serve_forever()
    os._exit(0)


if __name__ == '__main__':
    main()
