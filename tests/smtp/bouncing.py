"""An aiosmtpd handler that delivers to a Maildir like aiosmtpd.handlers.Mailbox, but
refuses for good (550) every recipient whose address starts with "bounce", the way a relay
answers for a mailbox that does not exist."""

from aiosmtpd.handlers import Mailbox


class BouncingMailbox(Mailbox):
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().startswith("bounce"):
            return "550 5.1.1 <%s>: no such mailbox here" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"
