from app.archive import archive_name
from app.jobconfig import load_jobs

CONFIG = """
[photos]
source = /home/mia/Pictures
compress = no
encrypt = false

[documents]
source = /home/mia/Documents

[mail]
source = /var/mail
compress = off
encrypt = yes
"""


def test_compress_no_is_off():
    assert load_jobs(CONFIG)[0].compress is False


def test_encrypt_defaults_to_off():
    assert load_jobs(CONFIG)[1].encrypt is False


def test_archive_name_without_compression_or_encryption():
    assert archive_name(load_jobs(CONFIG)[0], "2024-05-01") == "photos-2024-05-01.tar"


def test_archive_names_for_all_jobs():
    names = [archive_name(job, "2024-05-01") for job in load_jobs(CONFIG)]
    assert names == ["photos-2024-05-01.tar", "documents-2024-05-01.tar.gz", "mail-2024-05-01.tar.gpg"]
