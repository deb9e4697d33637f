internal import CCurl

/// libcurl's result codes as the transport's failures.
enum CurlFailure {
  static func failure(_ code: CURLcode, message: String) -> TransportFailure {
    switch code {
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
      // Nothing of the request left: safe to send again whatever the method.
      return TransportFailure(HTTPError(.networkUnavailable, message), neverSent: true)
    case CURLE_OPERATION_TIMEDOUT:
      return TransportFailure(HTTPError(.timeout, message))
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
      CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
      // The handshake happens before any byte of the request: a refused certificate or pin sends nothing.
      return TransportFailure(HTTPError(.tls, message))
    case CURLE_FILESIZE_EXCEEDED:
      return TransportFailure(HTTPError(.responseTooLarge, message))
    case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
      return TransportFailure(HTTPError(.invalidURL, message))
    case CURLE_ABORTED_BY_CALLBACK:
      return TransportFailure(HTTPError(.cancelled, message))
    default:
      // Reset, empty reply, broken framing, a refused CONNECT: the request may have been processed.
      return TransportFailure(HTTPError(.networkUnavailable, message))
    }
  }
}
