// libqrencode, for printing the device-flow verification URL as a QR code (RFC 8628 §3.3.1).
// No wrappers needed yet: QRcode_encodeString and QRcode_free are plain, non-variadic C.
#include <qrencode.h>
