import { lookup } from 'node:dns/promises';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { HTTP_PORTS, parseAllowList } from './allow-list.ts';
import { assertDestinationAllowed, createGuardedFetch, DestinationRefusedError, type Resolve } from './guarded-fetch.ts';

/** Names the test resolver answers for itself (others, such as localhost, go to the system resolver). */
const NAMES: Record<string, { address: string; family: number }[]> = {
  'intranet.example': [{ address: '10.1.2.3', family: 4 }],
  'metadata.example': [{ address: '169.254.169.254', family: 4 }],
  'v6-internal.example': [{ address: 'fd00:ec2::254', family: 6 }],
  'mirror.example': [{ address: '127.0.0.1', family: 4 }],
};
const resolve: Resolve = async (hostname) => NAMES[hostname] ?? lookup(hostname, { all: true });

/** URLs that must never be fetched without an allow-list entry: every non-public range, its encodings and IPv6 forms. */
const REFUSED = [
  // IPv4 loopback, and the numeric encodings WHATWG URL parsing normalises to it
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0177.0.0.1/',
  'http://0x7f.1/',
  'http://0x7f000001/',
  'http://017700000001/',
  'http://127.000.000.001/',
  'http://①②⑦.0.0.1/',
  'https://127.0.0.1:8443/secret',
  // host names that resolve to non-public addresses
  'http://localhost/',
  'http://LocalHost/',
  'http://intranet.example/',
  'http://metadata.example/latest/meta-data/',
  'http://v6-internal.example/',
  // unspecified, private, link-local/metadata, CGNAT, reserved, multicast, broadcast
  'http://0.0.0.0/',
  'http://0/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://192.0.0.1/',
  'http://192.0.2.1/',
  'http://198.18.0.1/',
  'http://240.0.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  // IPv6: loopback, unspecified, IPv4-mapped and -compatible, NAT64, ULA (EC2 metadata), link-local, multicast, docs, 6to4, Teredo
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[0:0:0:0:0:ffff:7f00:1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::ffff:8.8.8.8]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[fd00:ec2::254]/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://[2001:db8::1]/',
  'http://[2002:7f00:1::]/',
  'http://[2001::1]/',
  // other schemes
  'file:///etc/passwd',
  'ftp://ftp.example/',
  'gopher://127.0.0.1:6379/_INFO',
];

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/bundle.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"bundle"}');
    if (path === '/moved') return void res.writeHead(302, { location: '/bundle.json' }).end();
    if (path === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (path === '/to-localhost') return void res.writeHead(307, { location: `http://localhost:${port}/bundle.json` }).end();
    if (path === '/loop') return void res.writeHead(301, { location: '/loop' }).end();
    res.writeHead(404).end('not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('guarded fetch', () => {
  const guarded = createGuardedFetch({ resolve });

  it(`refuses all ${REFUSED.length} non-public, encoded and non-http destinations without connecting`, async () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(30);
    const outcomes = await Promise.all(
      REFUSED.map(async (url) => {
        try {
          const response = await guarded(url);
          return `${url} answered ${response.status}`;
        } catch (error) {
          return error instanceof DestinationRefusedError ? 'refused' : `${url} failed otherwise: ${(error as Error).message}`;
        }
      }),
    );
    expect(outcomes.filter((outcome) => outcome !== 'refused')).toEqual([]);
  });

  it('says why: the address, the scheme or the resolution', async () => {
    await expect(guarded('http://2130706433/')).rejects.toMatchObject({
      code: 'DESTINATION_NOT_ALLOWED',
      message: '127.0.0.1 is not a public address',
    });
    await expect(guarded('ftp://ftp.example/')).rejects.toThrow('only http and https URLs may be fetched');
    await expect(guarded('http://intranet.example/')).rejects.toThrow('intranet.example resolves to no public address');
  });

  it('reaches an allow-listed mirror by address, by CIDR and by name, following a redirect on the same host', async () => {
    for (const entries of [`127.0.0.1:${port}`, '127.0.0.0/8:*', `10.0.0.0/8, 127.0.0.0/30:${port}`]) {
      const response = await createGuardedFetch({ allowList: parseAllowList(entries, HTTP_PORTS), resolve })(
        `http://127.0.0.1:${port}/moved`,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ type: 'bundle' });
    }
    // The socket goes to the address the guard checked: this name exists only in the test resolver.
    const byName = createGuardedFetch({ allowList: parseAllowList(`mirror.example:${port}`, HTTP_PORTS), resolve });
    expect(await (await byName(`http://mirror.example:${port}/bundle.json`)).json()).toEqual({ type: 'bundle' });
  });

  it('allows listed mirrors only: an address outside the list stays refused', async () => {
    const mirrorOnly = createGuardedFetch({ allowList: parseAllowList('127.0.0.1, mirror.example', HTTP_PORTS), resolve });
    await expect(mirrorOnly('http://127.0.0.2/')).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(mirrorOnly('http://intranet.example/')).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(mirrorOnly('http://[::1]/')).rejects.toBeInstanceOf(DestinationRefusedError);
  });

  it('admits a listed host on the ports its entry names: none means 80 and 443 only, so 127.0.0.1 does not open Redis', async () => {
    const bare = createGuardedFetch({ allowList: parseAllowList('127.0.0.1, mirror.example', HTTP_PORTS), resolve });
    for (const url of [
      `http://127.0.0.1:${port}/bundle.json`,
      'http://127.0.0.1:6379/',
      `http://mirror.example:${port}/`,
      'http://mirror.example:6379/',
    ]) {
      await expect(bare(url), url).rejects.toBeInstanceOf(DestinationRefusedError);
    }
    const named = createGuardedFetch({ allowList: parseAllowList(`127.0.0.1:${port}, [::1]:${port}`, HTTP_PORTS), resolve });
    expect(await (await named(`http://127.0.0.1:${port}/bundle.json`)).json()).toEqual({ type: 'bundle' });
    await expect(named('http://127.0.0.1:6379/')).rejects.toThrow('127.0.0.1 is not a public address');
    await expect(named('http://[::1]:6379/')).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(
      assertDestinationAllowed('http://127.0.0.1:6379/', { allowList: parseAllowList('127.0.0.1', HTTP_PORTS) }),
    ).rejects.toThrow('127.0.0.1 is not a public address');
    expect((await assertDestinationAllowed('http://127.0.0.1/', { allowList: parseAllowList('127.0.0.1', HTTP_PORTS) })).href).toBe(
      'http://127.0.0.1/',
    );
  });

  it('refuses redirects to another host (a private address) and redirect loops', async () => {
    const mirror = createGuardedFetch({ allowList: parseAllowList('127.0.0.1:*', HTTP_PORTS), resolve });
    await expect(mirror(`http://127.0.0.1:${port}/to-metadata`)).rejects.toThrow('redirect from 127.0.0.1 to another host');
    await expect(mirror(`http://127.0.0.1:${port}/to-localhost`)).rejects.toThrow('redirect from 127.0.0.1 to another host');
    await expect(mirror(`http://127.0.0.1:${port}/loop`)).rejects.toThrow('more than 5 redirects');
  });

  it('refuses a malformed allow-list entry at start-up', () => {
    expect(() => parseAllowList('mirror.internal, 10.0.0.0/33', HTTP_PORTS)).toThrow('"10.0.0.0/33" is not a valid CIDR');
    for (const entry of ['127.0.0.1:0', '127.0.0.1:65536', 'mirror.internal:http', '[::1]:', '[::1]:-1']) {
      expect(() => parseAllowList(entry, HTTP_PORTS), entry).toThrow(`"${entry}" names no valid port (1-65535 or *)`);
    }
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:6379x' })).toThrow(
      'WEBHOOK_ALLOWED_HOSTS: "127.0.0.1:6379x" names no valid port',
    );
    expect(() => loadConfig({ SOURCE_ALLOWED_HOSTS: 'mirror_internal' })).toThrow(
      'SOURCE_ALLOWED_HOSTS: "mirror_internal" is neither a host name',
    );
    expect(loadConfig({}).SOURCE_ALLOWED_HOSTS).toBe('');
  });
});
