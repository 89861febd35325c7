-- socks5h: SOCKS5 with the destination's name resolved by the proxy (the relay sends names to any SOCKS5 proxy).
alter table proxies drop constraint proxies_scheme_check;
alter table proxies add constraint proxies_scheme_check
  check (scheme in ('http', 'https', 'socks4', 'socks5', 'socks5h'));
alter table profiles drop constraint profiles_proxy_scheme_check;
alter table profiles add constraint profiles_proxy_scheme_check
  check (proxy_scheme in ('http', 'https', 'socks4', 'socks5', 'socks5h'));
