"""Request builders of the one-time code flows: ``send_code`` and ``reset_password`` (``login`` takes its
``code`` and ``challenge`` in ``_requests``).

Kept apart from ``_requests`` so each file stays about one thing; the sync and asyncio clients turn these into
methods the same way."""

from __future__ import annotations

from ._common import DEFAULT
from ._requests import _request, params_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Optional

    from ._base import BaseClient
    from ._requests import Request
    from ._types import CodeChannel, CodePurpose, ResetPasswordResult, SendCodeResult


def send_code(
    self: BaseClient,
    *,
    account: Optional[str] = None,
    username: Optional[str] = None,
    email: Optional[str] = None,
    phone: Optional[str] = None,
    purpose: Optional[CodePurpose] = None,
    channel: Optional[CodeChannel] = None,
    challenge: Optional[str] = None,
    profile: Optional[str] = None,
    locale: Optional[str] = None,
    timeout: Optional[float] = DEFAULT,
) -> Request[SendCodeResult]:
    """Sends a one-time code to one of ``account``/``username``/``email``/``phone`` for ``purpose``
    (``login``, ``register``, ``resetPassword``, ``verifyContact``), optionally by ``channel`` (``sms``,
    ``email``); or, with ``challenge`` alone, the code of a pending :class:`VerificationRequired` again.
    Returns ``sentTo`` (masked), ``channel``, ``resendAt`` and ``expiresAt``. Inside the resend cooldown it
    raises :class:`RateLimited` (``retry_after``, ``resend_at``)."""
    given = [v for v in (account, username, email, phone) if v is not None]
    if challenge is not None:
        if given or purpose is not None or channel is not None:
            raise TypeError("send_code(challenge=...) takes no account, purpose or channel")
    elif len(given) != 1 or purpose is None:
        raise TypeError("send_code() needs exactly one of account=, username=, email=, phone= and purpose=")
    params = params_of(account=account, username=username, email=email, phone=phone, purpose=purpose,
                       channel=channel, challenge=challenge, profile=profile, locale=locale)
    return _request(self, "sendCode", params, timeout)


def reset_password(
    self: BaseClient,
    *,
    code: str,
    new_password: str,
    account: Optional[str] = None,
    username: Optional[str] = None,
    email: Optional[str] = None,
    phone: Optional[str] = None,
    profile: Optional[str] = None,
    locale: Optional[str] = None,
    timeout: Optional[float] = DEFAULT,
) -> Request[ResetPasswordResult]:
    """Sets ``new_password`` (the register policy applies: :class:`ValidationFailed` with
    ``fields["newPassword"]``) with a code sent for ``resetPassword``. Every session of the account ends."""
    if not isinstance(code, str) or not isinstance(new_password, str):
        raise TypeError("reset_password() needs code= and new_password= as str")
    if len([v for v in (account, username, email, phone) if v is not None]) != 1:
        raise TypeError("reset_password() needs exactly one of account=, username=, email=, phone=")
    params = params_of(account=account, username=username, email=email, phone=phone, code=code,
                       newPassword=new_password, profile=profile, locale=locale)
    return _request(self, "resetPassword", params, timeout)
