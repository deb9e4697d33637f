import AuthCrypto

/// RFC 7515 Appendix A: the three signed examples and their keys (JWK members decoded from base64url).
enum RFC7515 {
  static let payload = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"

  /// A.1: HS256.
  static let hs256Token =
    "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.\(payload).dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
  static let hs256Key = Base64URL.decode(
    "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")!

  /// A.2: RS256.
  static let rs256Token =
    "eyJhbGciOiJSUzI1NiJ9.\(payload)."
    + "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9"
    + "uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB"
    + "_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rq"
    + "Vt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
  static let rsaModulus = Base64URL.decode(
    "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pC"
      + "gNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2Ca"
      + "pHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb5"
      + "4h4FRWyuXpoQ")!
  static let rsaExponent = Base64URL.decode("AQAB")!

  /// A.3: ES256 (signature is raw r ‖ s).
  static let es256Token =
    "eyJhbGciOiJFUzI1NiJ9.\(payload)."
    + "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
  static let ecX = Base64URL.decode("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU")!
  static let ecY = Base64URL.decode("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")!

  static var hmacKey: JWSVerificationKey { .hmac(SecretBytes(hs256Key)) }
  static var rsaKey: JWSVerificationKey { .rsa(modulus: rsaModulus, exponent: rsaExponent) }
  static var ecKey: JWSVerificationKey { .ecP256(x: ecX, y: ecY) }
}
