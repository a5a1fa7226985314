"""The gate: the path of one call from proposal to outcome (DESIGN.md).

    propose -> resolve -> parse -> validate -> authorize -> approve -> dedupe
            -> execute -> verify -> record -> observe

`Gate` runs it; `Policy` and `Rule` decide, `Approvals` holds calls for people, the store
makes writes exactly-once and keeps the receipts, `Redactor` keeps secrets out of them.
"""

from callgate._backoff import Backoff
from callgate.contract._tool import FromContext
from callgate.gate._approvals import Approvals, values_to_check
from callgate.gate._attempt import Refusal
from callgate.gate._decision import Action, Decision
from callgate.gate._execute import ExecutionSettings
from callgate.gate._gate import Gate
from callgate.gate._hooks import Reconciliation
from callgate.gate._outcome import MAX_SHOWN_VALUES
from callgate.gate._policy import DefaultMode, Policy, PolicyHook
from callgate.gate._provenance import REQUEST_ATTRIBUTE, UNTRUSTED_ACTION, UNTRUSTED_VALUE
from callgate.gate._record import ReceiptSettings
from callgate.gate._redact import REDACTED, Redactor
from callgate.gate._retry import RetrySettings
from callgate.gate._rule_of_two import RULE_OF_TWO
from callgate.gate._rules import PolicyRequest, Rule
from callgate.gate._untrusted import (
    SUSPECTED_INJECTION,
    Detector,
    DetectorHit,
    ProvenanceMode,
    UntrustedResults,
)

__all__ = [
    "MAX_SHOWN_VALUES",
    "REDACTED",
    "REQUEST_ATTRIBUTE",
    "RULE_OF_TWO",
    "SUSPECTED_INJECTION",
    "UNTRUSTED_ACTION",
    "UNTRUSTED_VALUE",
    "Action",
    "Approvals",
    "Backoff",
    "Decision",
    "DefaultMode",
    "Detector",
    "DetectorHit",
    "ExecutionSettings",
    "FromContext",
    "Gate",
    "Policy",
    "PolicyHook",
    "PolicyRequest",
    "ProvenanceMode",
    "ReceiptSettings",
    "Reconciliation",
    "Redactor",
    "Refusal",
    "RetrySettings",
    "Rule",
    "UntrustedResults",
    "values_to_check",
]
