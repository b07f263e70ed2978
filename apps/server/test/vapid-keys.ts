/** A valid VAPID key pair (`web-push generate-vapid-keys`) for configuration tests: the server checks the format. */
export const VAPID_KEYS = {
  publicKey: 'BM8fZaX8RqaBOpQ8AAs4QydxdCjQgWir_UFeAWKC3GmKfLS9mXuaOgWvDEA9X1jdiYTEt-5RksI7_zxmcS2xdvk',
  privateKey: 'Vm0SqKHDWN0Hv_oDWl9mKxvsGM02vk1eBAwubugk3I0',
};
