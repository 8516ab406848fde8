"""A relay like the hosted ones: TLS (STARTTLS required, or implicit TLS from the first byte)
and AUTH PLAIN/LOGIN with one user, delivering to a Maildir. Runs until killed.

    python3 secure_relay.py PORT MAILDIR CERT KEY starttls|implicit USER PASSWORD
"""

import mailbox
import ssl
import sys
import time
import warnings

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword


def main():
    port, maildir, cert, key, mode, user, password = sys.argv[1:8]
    mailbox.Maildir(maildir, create=True)
    # Implicit TLS with AUTH is what hosted relays do on 465; aiosmtpd only sees that
    # STARTTLS is not required.
    warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == user
            and auth_data.password.decode() == password
        )
        return AuthResult(success=ok, handled=False)

    common = dict(
        hostname="127.0.0.1",
        port=int(port),
        authenticator=authenticator,
        auth_required=True,
    )
    if mode == "starttls":
        controller = Controller(
            Mailbox(maildir), tls_context=context, require_starttls=True, **common
        )
    elif mode == "implicit":
        # TLS wraps the socket, so AUTH over it is safe without STARTTLS.
        controller = Controller(
            Mailbox(maildir), ssl_context=context, auth_require_tls=False, **common
        )
    else:
        sys.exit("mode must be starttls or implicit")
    controller.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
