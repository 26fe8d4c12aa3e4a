"""billwise: invoices for freelancers, with VAT per line."""
