-- Every invitation mailed, kept for a day whatever becomes of the invitation: the daily
-- limits count these, so withdrawing an invitation and sending it again mails nobody more
-- often. No foreign keys: a row outlives its form's purge until it is a day old.
CREATE TABLE invitations_sent (
    account_id TEXT NOT NULL,
    form_id    TEXT NOT NULL,
    -- Lower-cased, as addresses are compared.
    email      TEXT NOT NULL,
    sent_at    DOUBLE PRECISION NOT NULL
);
CREATE INDEX invitations_sent_account ON invitations_sent (account_id, sent_at);
CREATE INDEX invitations_sent_address ON invitations_sent (form_id, email, sent_at);
