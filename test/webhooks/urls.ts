// Webhook target URLs shared by the unit and end-to-end tests: hostile ones (each must be refused)
// and good public ones (accepted).
export const HOSTILE = [
  "http://example.com/hook", // not https
  "ftp://example.com/", "javascript:alert(1)", "not a url", "https://user:pw@example.com/",
  "https://127.0.0.1/", "https://127.1/", "https://2130706433/", "https://0x7f.1/", "https://0177.0.0.1/", "https://0x7f000001/",
  "https://%31%32%37.0.0.1/", "https://１２７.0.0.1/", "https://127.0.0.1./", "https://0.0.0.0/", "https://0/",
  "https://10.0.0.1/", "https://172.16.0.1/", "https://172.31.255.255/", "https://192.168.1.1/", "https://169.254.169.254/latest/meta-data",
  "https://100.64.0.1/", "https://100.127.255.254/", "https://224.0.0.1/", "https://255.255.255.255/", "https://240.0.0.1/",
  "https://192.0.2.10/", "https://198.51.100.7/", "https://203.0.113.9/", "https://198.18.0.1/", "https://192.0.0.8/",
  "https://[::1]/", "https://[::]/", "https://[0:0:0:0:0:0:0:1]/", "https://[fe80::1]/", "https://[fc00::1]/", "https://[fd12:3456::1]/",
  "https://[ff02::1]/", "https://[fec0::1]/", "https://[2001:db8::1]/", "https://[3fff::1]/", "https://[100::1]/",
  "https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/", "https://[::ffff:a9fe:a9fe]/", "https://[::127.0.0.1]/", "https://[::ffff:0:a00:1]/",
  "https://[64:ff9b::7f00:1]/", "https://[64:ff9b::10.0.0.1]/", "https://[64:ff9b:1::a9fe:a9fe]/", "https://[2002:7f00:1::1]/", "https://[2002:c0a8:101::1]/",
  "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", // Teredo, client = 127.0.0.1
  "https://localhost/", "https://LOCALHOST./", "https://api.localhost/", "https://intranet/", "https://printer.local/", "https://db.internal/",
  "https://svc.home.arpa/", "https://x.test/", "https://127.0.0.1.nip.io/", "https://7f000001.sslip.io/", "https://localtest.me/",
  "https://example.com.123/",
];
export const GOOD = [
  "https://hooks.example.com/codecell", "https://example.com:8443/a/b?c=d", "https://93.184.215.14/h", "https://8.8.8.8/",
  "https://172.32.0.1/", "https://[2606:4700:4700::1111]/h", "https://[::ffff:8.8.8.8]/", "https://[64:ff9b::808:808]/",
  "https://[2002:808:808::1]/", "https://bücher.example.com/hook",
];
