from app.kanban import Board
from app.tasks import Task


def test_new_card_does_not_inherit_labels():
    Task("Fix login").tag("bug")
    assert Task("Write changelog").labels == []


def test_board_filter_by_label():
    board = Board()
    board.add("Deploy hotfix").tag("urgent")
    board.add("Plan retro")
    assert board.with_label("urgent") == ["Deploy hotfix"]


def test_each_card_keeps_its_own_labels():
    first = Task("Design logo").tag("design")
    second = Task("Update docs").tag("docs")
    assert (first.labels, second.labels) == (["design"], ["docs"])


def test_given_label_list_is_not_modified():
    given = ["backend"]
    Task("Add cache", labels=given).tag("perf")
    assert given == ["backend"]
