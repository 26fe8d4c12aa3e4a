from app.charting import plan_treatments
from app.visits import visit_summary


def test_next_patient_gets_own_plan():
    plan_treatments({16: "caries"})
    assert plan_treatments({21: "fracture"}) == ["crown #21"]


def test_healthy_patient_gets_empty_plan():
    plan_treatments({36: "abscess", 47: "caries"})
    assert plan_treatments({11: "healthy"}) == []


def test_same_findings_give_the_same_plan():
    first = plan_treatments({46: "caries"})
    second = plan_treatments({46: "caries"})
    assert first == second == ["filling #46"]


def test_visit_cost_covers_only_this_patient():
    visit_summary("Ana Ruiz", {14: "fracture", 25: "caries"})
    assert visit_summary("Ben Okafor", {31: "calculus"}) == {
        "patient": "Ben Okafor", "plan": ["scaling #31"], "cost": 60}
