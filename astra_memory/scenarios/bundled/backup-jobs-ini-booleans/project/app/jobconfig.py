"""Backup jobs described in an INI file, one section per job."""

import configparser
from dataclasses import dataclass


@dataclass
class BackupJob:
    name: str
    source: str
    compress: bool
    encrypt: bool


def load_jobs(text: str) -> list[BackupJob]:
    """Jobs in file order; compress defaults to on, encrypt to off."""
    parser = configparser.ConfigParser()
    parser.read_string(text)
    jobs = []
    for name in parser.sections():
        section = parser[name]
        jobs.append(
            BackupJob(
                name=name,
                source=section["source"],
                compress=bool(section.get("compress", "yes")),
                encrypt=bool(section.get("encrypt", "no")),
            )
        )
    return jobs
