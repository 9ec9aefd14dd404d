// The dashboard's onboarding texts in English (docs/decisions.md#dashboard-pages): creating an organization, an
// invitation opened from its email, and going live. Joined into the English catalog (en.ts); every one is in
// Kiswahili too (dashboard-onboarding.sw.ts).

export const dashboardOnboardingEn = {
  'dashboard.onboarding.home.create': 'Create an organization',
  'dashboard.onboarding.home.created':
    'The organization {organization} is created. Its test API keys work now, with test credit in its test wallet.',
  'dashboard.onboarding.home.joined': 'You joined {organization}.',
  'dashboard.onboarding.create.title': 'Create an organization',
  'dashboard.onboarding.create.intro':
    'An organization is your business on the platform: its team, API keys, wallets and invoices. You become its owner. Test API keys work at once, with test credit in the test wallet; live ones once the business is verified.',
  'dashboard.onboarding.create.name': 'Name of the organization',
  'dashboard.onboarding.create.nameHint': 'As your customers know it, at most 100 characters.',
  'dashboard.onboarding.create.kraPin': 'KRA PIN (optional)',
  'dashboard.onboarding.create.kraPinHint': 'A letter, nine digits and a letter, such as P051234567X.',
  'dashboard.onboarding.create.address': 'Postal address (optional)',
  'dashboard.onboarding.create.addressHint': 'At most 4 lines, as it is printed on invoices.',
  'dashboard.onboarding.create.billingEmail': 'Billing email (optional)',
  'dashboard.onboarding.create.billingEmailHint': 'Receipts, invoices and reminders go there as well as to the owners.',
  'dashboard.onboarding.create.optionalLater': 'The optional fields can be set later.',
  'dashboard.onboarding.create.submit': 'Create the organization',
  'dashboard.onboarding.create.problem': 'The organization was not created: correct what is marked below.',
  'dashboard.onboarding.create.invalid.name': 'Enter a name of 1 to 100 characters, without control characters.',
  'dashboard.onboarding.create.invalid.kraPin':
    'Enter the KRA PIN as a letter, nine digits and a letter (such as P051234567X), or leave it empty.',
  'dashboard.onboarding.create.invalid.address':
    'Enter at most 4 lines and 200 characters, without control characters, or leave it empty.',
  'dashboard.onboarding.create.invalid.billingEmail':
    'Enter an email address such as accounts@example.co.ke, or leave it empty.',
  'dashboard.onboarding.invitation.title': 'Invitation',
  'dashboard.onboarding.invitation.heading': 'Invitation to {organization}',
  'dashboard.onboarding.invitation.intro': '{inviter} invited you to join {organization}.',
  'dashboard.onboarding.invitation.organization': 'Organization',
  'dashboard.onboarding.invitation.role': 'Role',
  'dashboard.onboarding.invitation.invitedBy': 'Invited by',
  'dashboard.onboarding.invitation.sentTo': 'Sent to',
  'dashboard.onboarding.invitation.expires': 'Expires',
  'dashboard.onboarding.invitation.formerMember': 'A former member',
  'dashboard.onboarding.invitation.acceptHint': 'Accepting makes you a member of {organization} with the role {role}.',
  'dashboard.onboarding.invitation.accept': 'Accept and join',
  'dashboard.onboarding.invitation.expired':
    'This invitation expired on {time}, so it can no longer be accepted. Ask whoever invited you to send a new one.',
  'dashboard.onboarding.invitation.revoked':
    'This invitation was withdrawn by the organization, so it can no longer be accepted. Ask whoever invited you if you still need to join.',
  'dashboard.onboarding.invitation.accepted': 'This invitation has been accepted already: it cannot be used again.',
  'dashboard.onboarding.invitation.otherAddress':
    'This invitation was sent to another email address than the one you signed in with. Sign in with the address it was sent to, then open the link again.',
  'dashboard.onboarding.invitation.member': 'You are a member of {organization} already.',
  'dashboard.onboarding.invitation.home': 'Go to Home',
  'dashboard.onboarding.activation.title': 'Going live',
  'dashboard.onboarding.activation.intro':
    'Test API keys and test top-ups work from the start. Live API keys and live wallet top-ups stay locked until {organization} is activated: an owner verifies the business once.',
  'dashboard.onboarding.activation.why':
    'Live keys check real people and move real money, so the platform verifies the business behind them first: its registration number and company name, its certificate of incorporation, CR12 and KRA PIN certificate, and the ID of each director.',
  'dashboard.onboarding.activation.stateHeading': 'Where it stands',
  'dashboard.onboarding.activation.notStarted': 'Not activated: the business verification has not been started.',
  'dashboard.onboarding.activation.pending':
    'Not activated yet: the business verification is open, waiting for the details and documents.',
  'dashboard.onboarding.activation.requiresInput':
    'Not activated yet: the reviewers asked for more ({reason}). Continue the verification to send it.',
  'dashboard.onboarding.activation.processing':
    'Not activated yet: the documents are being reviewed. There is nothing to do but wait for the decision.',
  'dashboard.onboarding.activation.rejected':
    'The last business verification was rejected ({reason}). Start a new one.',
  'dashboard.onboarding.activation.ended': 'The last business verification ended ({status}). Start a new one.',
  'dashboard.onboarding.activation.noReason': 'no reason given',
  'dashboard.onboarding.activation.openUntil': 'The open verification can be finished until {time}.',
  'dashboard.onboarding.activation.activated': 'Activated on {time}: live API keys and live top-ups are unlocked.',
  'dashboard.onboarding.activation.developers': 'Create live API keys on the Developers page',
  'dashboard.onboarding.activation.start': 'Start the business verification',
  'dashboard.onboarding.activation.continue': 'Continue the business verification',
  'dashboard.onboarding.activation.startHint':
    'You go to the verification page, where you give the business details and documents.',
  'dashboard.onboarding.activation.ownerOnly': 'Only an owner of the organization can start the business verification.',
  'dashboard.onboarding.activation.unavailable':
    'Going live is not available on this server: it has no business verification set up.',
} as const;
