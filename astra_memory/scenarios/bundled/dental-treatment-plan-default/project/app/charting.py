"""Treatment plans built from the findings charted at a check-up."""

PROCEDURES = {"caries": "filling", "fracture": "crown", "abscess": "root canal", "calculus": "scaling"}


def plan_treatments(findings: dict[int, str], plan: list[str] = []) -> list[str]:
    """Append one procedure per charted tooth (FDI number) to plan and return the plan.

    A follow-up visit passes the plan made so far; findings that need no procedure are skipped.
    """
    for tooth, finding in sorted(findings.items()):
        procedure = PROCEDURES.get(finding)
        if procedure:
            plan.append(f"{procedure} #{tooth}")
    return plan
