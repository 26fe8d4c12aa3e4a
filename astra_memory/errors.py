"""Named errors. Each one is a rule the agent enforces, not only a prompt it was given."""


class AstraError(ValueError):
    """Base class of every error this package raises on purpose.

    A ``ValueError``: langgraph-api (``langgraph dev``, LangGraph Studio) passes the message of a
    ``ValueError`` through to the client and replaces that of an arbitrary ``Exception`` with "An
    internal error occurred" (``langgraph_api.serde.default``). Every message here is written for
    the user, so Studio shows it as it is.
    """


class MemoryGateError(AstraError):
    """An edit or a diagnosis was attempted before the memory search result was delivered."""


class DiagnosisGateError(MemoryGateError):
    """An edit was attempted before the diagnosis search result was delivered: the model states its
    diagnosis (``state_diagnosis``), memory is searched with it, and only then may it edit. A kind of
    memory gate error (the second mandatory search), so everything that lets those through lets it through."""


class ConfirmedFixGateError(AstraError):
    """A store was attempted without a passing test run (or after an edit that voided it)."""


class UnconfirmedOutcomeError(AstraError):
    """The outcome string offered for storage is not the one the test run confirmed."""


class MemoryValidationError(AstraError):
    """A fix record, or a search request, failed validation."""


class AgentLimitError(AstraError):
    """A budget (model requests, tool calls, attempts, spend) is spent."""


class WorkspaceError(AstraError):
    """A file operation tried to leave the workspace or touch a protected path."""


class ScenarioError(AstraError):
    """A scenario folder is missing, malformed or has no tests."""


class ConfigurationError(AstraError):
    """A setting is missing or invalid; the message names the setting to change."""
