"""Check-up visits: the plan agreed with the patient and what it will cost."""

from app.charting import plan_treatments

FEES = {"filling": 85, "crown": 640, "root canal": 420, "scaling": 60}


def visit_summary(patient: str, findings: dict[int, str]) -> dict[str, object]:
    plan = plan_treatments(findings)
    cost = sum(FEES[step.split(" #")[0]] for step in plan)
    return {"patient": patient, "plan": plan, "cost": cost}
