"""E-mail: sending (SMTP), turn mails and digests, the mail routes (above ``lobby``)."""
