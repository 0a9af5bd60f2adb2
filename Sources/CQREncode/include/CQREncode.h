// libqrencode, for printing the device-flow verification URL as a QR code (RFC 8628 §3.3.1),
// loaded on first use with dlopen: only `kcauth login` with the device flow ever draws one, so
// no other command should map the library at start-up (docs/performance.md). <qrencode.h> is
// included for its types and constants only; nothing here links libqrencode.
#ifndef KC_CQRENCODE_H
#define KC_CQRENCODE_H

#include <qrencode.h>

// NULL when libqrencode.so.4 is loaded and bound, else why not.
const char *kc_qrencode_load_error(void);

// QRcode_encodeString and QRcode_free with libqrencode's signatures. When the library cannot be
// loaded, kc_QRcode_encodeString returns NULL with errno set to ELIBACC.
QRcode *kc_QRcode_encodeString(const char *string, int version, QRecLevel level, QRencodeMode hint, int casesensitive);
void kc_QRcode_free(QRcode *qrcode);

#endif
