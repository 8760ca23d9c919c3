import { describe, expect, it } from 'vitest';
import {
  isPrivateHost,
  isPrivateIPv6,
  isPrivateUrl,
  isRefusedUrl,
  parsePrivateAllowance,
} from '../../src/domain/url/address';

describe('private address detection', () => {
  const privateUrls = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/', // decimal
    'http://0177.0.0.1/', // octal
    'http://0x7f000001/', // hex
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/', // cloud metadata
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/', // IPv4-mapped
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:a9fe:a9fe]/', // mapped metadata
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[64:ff9b::a00:1]/', // NAT64 of 10.0.0.1
    'http://localhost/',
    'http://LOCALHOST./',
    'http://api.localhost/',
    'http://printer.local/',
    'http://metadata.google.internal/',
  ];
  for (const url of privateUrls) it(`refuses ${url}`, () => expect(isPrivateUrl(url)).toBe(true));

  const publicUrls = [
    'http://8.8.8.8/',
    'http://172.32.0.1/',
    'http://192.169.0.1/',
    'http://[2606:4700::1111]/',
    'http://[::ffff:8.8.8.8]/',
    'https://example.com/',
    'http://localhost.example.com/',
  ];
  for (const url of publicUrls) it(`allows ${url}`, () => expect(isPrivateUrl(url)).toBe(false));

  it('treats unparsable URLs as private (fail closed)', () => {
    expect(isPrivateUrl('http://')).toBe(true);
  });

  it('handles raw host strings and malformed IPv6', () => {
    expect(isPrivateHost('[::1]')).toBe(true);
    expect(isPrivateIPv6('1:2:3')).toBe(false);
    expect(isPrivateIPv6('fe80::1%eth0')).toBe(true);
  });
});

describe('ALLOW_PRIVATE_NETWORKS', () => {
  it('true allows every private address; false none; public ones are never refused', () => {
    expect(isRefusedUrl('http://127.0.0.1/', true)).toBe(false);
    expect(isRefusedUrl('http://127.0.0.1/', false)).toBe(true);
    expect(isRefusedUrl('https://example.com/', false)).toBe(false);
    expect(isRefusedUrl('not a url', true)).toBe(false);
    expect(isRefusedUrl('not a url', false)).toBe(true);
  });

  it('a list allows exactly the hosts and IPv4 ranges it names, in whatever spelling the URL uses', () => {
    const allow = parsePrivateAllowance('127.0.0.1, localhost, 10.1.0.0/16');
    expect(isRefusedUrl('http://127.0.0.1:8080/', allow)).toBe(false);
    expect(isRefusedUrl('http://2130706433/', allow)).toBe(false); // 127.0.0.1 in decimal
    expect(isRefusedUrl('http://localhost/', allow)).toBe(false);
    expect(isRefusedUrl('http://10.1.200.3/', allow)).toBe(false);
    expect(isRefusedUrl('http://10.2.0.1/', allow)).toBe(true);
    expect(isRefusedUrl('http://127.0.0.2/', allow)).toBe(true);
    expect(isRefusedUrl('http://0x7f000002/', allow)).toBe(true);
    expect(isRefusedUrl('http://[::ffff:127.0.0.1]/', allow)).toBe(true); // mapped forms are not listed: refused
    expect(isRefusedUrl('http://169.254.169.254/', allow)).toBe(true);
    expect(isRefusedUrl('http://api.localhost/', allow)).toBe(true);
  });

  it('parses true, false, empty and lists', () => {
    expect(parsePrivateAllowance('TRUE')).toBe(true);
    expect(parsePrivateAllowance(undefined)).toBe(false);
    expect(parsePrivateAllowance('')).toBe(false);
    expect(parsePrivateAllowance('a,,b ')).toEqual(['a', 'b']);
  });
});
