import preact from '@preact/preset-vite';
import { defineConfig, type EntrypointGroup } from 'wxt';
import { preactWithoutInnerHtml } from './scripts/preact-without-inner-html';

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({
    plugins: [preact(), preactWithoutInnerHtml()],
    // Terser's extra passes take about 1.5 KB (7%) more off the worker than esbuild's minifier: the budgets are tight.
    // Chromium and Firefox load <link rel="modulepreload"> themselves: Vite's polyfill for it is 0.4 KB for nothing.
    build: {
      modulePreload: { polyfill: false },
      target: 'es2022',
      minify: 'terser',
      terserOptions: { ecma: 2020, compress: { passes: 3, unsafe_arrows: true, unsafe_methods: true } },
    },
  }),
  hooks: {
    // WXT builds its pages together, and Rollup would split what they share into chunks that cost each page imports,
    // exports and lost inlining, and make the manager load the popup's whole script. Built one by one, each page's
    // script holds only what that page uses.
    'entrypoints:grouped': (_wxt, groups) => {
      const alone = groups.flatMap((group): EntrypointGroup[] =>
        Array.isArray(group) ? group.map((entry) => [entry]) : [group],
      );
      groups.splice(0, groups.length, ...alone);
    },
    // Every entry point uses the browser's own promise-based API (`chrome` on MV3, `browser` on Firefox); the
    // polyfill would cost the popup 2.7 KB of its 25 KB budget and the worker 2.5 KB of its 20 KB for nothing
    // they use (Chromium 156 answers a Promise returned by the worker's message listener, as Firefox does).
    'vite:build:extendConfig': (_entrypoints, config) => {
      const alias = config.resolve?.alias;
      if (Array.isArray(alias)) {
        config.resolve = { ...config.resolve, alias: alias.filter((entry) => entry.find !== 'wxt/browser') };
      } else if (alias) {
        delete (alias as Record<string, string>)['wxt/browser'];
      }
    },
  },
  // The sources zip is what addons.mozilla.org rebuilds the Firefox package from: the extension's code and its
  // build set-up, without the service, the tests and the docs.
  zip: { excludeSources: ['server/**', 'test/**', 'docs/**', '.ci/**'] },
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: ['storage', 'alarms', 'notifications', 'contextMenus'],
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: '__MSG_extName__' },
    // Alt+Shift+<letter>. Chromium 156 leaves A B C N P R T W X Z unassigned when an extension suggests them
    // (measured by the e2e tests), so these use letters it accepts.
    commands: {
      _execute_action: { suggested_key: { default: 'Alt+Shift+O' } },
      'start-last-profile': {
        suggested_key: { default: 'Alt+Shift+S' },
        description: '__MSG_commandStartLastProfile__',
      },
      'stop-all-sessions': {
        suggested_key: { default: 'Alt+Shift+Q' },
        description: '__MSG_commandStopAllSessions__',
      },
      'run-last-script': {
        suggested_key: { default: 'Alt+Shift+L' },
        description: '__MSG_commandRunLastScript__',
      },
    },
    ...(browser === 'firefox' && {
      browser_specific_settings: {
        gecko: {
          id: 'profile-pilot@profile-pilot.dev',
          // data_collection_permissions needs Firefox 140 (142 on Android).
          strict_min_version: '140.0',
          // The API key and the proxy passwords the person enters go to the service they chose, and nowhere
          // else (docs/store/listing-firefox.md).
          data_collection_permissions: { required: ['authenticationInfo'] },
        },
        gecko_android: { strict_min_version: '142.0' },
      },
    }),
  }),
});
