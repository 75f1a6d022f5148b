// Plain-text messages: they render everywhere and the links are the point.
const sign = "\n\n— Parley";

export function verifyEmailMail(p: { name: string; link: string; code: string }) {
  return {
    subject: `Your Parley verification code: ${p.code}`,
    text: `Hi ${p.name},\n\nConfirm your email address to finish setting up Parley.\n\nOpen this link: ${p.link}\n\nOr enter this code: ${p.code}\n\nThe link and the code expire in 24 hours. If you did not sign up, ignore this message.${sign}`,
  };
}

export function resetPasswordMail(p: { name: string; link: string }) {
  return {
    subject: "Reset your Parley password",
    text: `Hi ${p.name},\n\nSomeone (hopefully you) asked to reset your Parley password.\n\nChoose a new password here: ${p.link}\n\nThe link works once and expires in 1 hour. Setting a new password signs you out everywhere else. If you did not ask for this, ignore this message; your password stays as it is.${sign}`,
  };
}

export function invitationMail(p: { inviter: string; orgName: string; role: string; link: string }) {
  return {
    subject: `${p.inviter} invited you to ${p.orgName} on Parley`,
    text: `${p.inviter} invited you to join ${p.orgName} on Parley as ${p.role}.\n\nAccept the invitation: ${p.link}\n\nThe invitation expires in 72 hours.${sign}`,
  };
}
