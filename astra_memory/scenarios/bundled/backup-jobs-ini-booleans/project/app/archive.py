"""File names of the archives written by backup jobs."""

from app.jobconfig import BackupJob


def archive_name(job: BackupJob, day: str) -> str:
    """E.g. "photos-2024-05-01.tar.gz.gpg" for a compressed and encrypted job."""
    name = f"{job.name}-{day}.tar"
    if job.compress:
        name += ".gz"
    if job.encrypt:
        name += ".gpg"
    return name
