/** What staff are asked to paste to name someone's account, wherever they name one. */
export const VRCHAT_ACCOUNT_HINT = "Paste a VRChat profile link (https://vrchat.com/home/user/usr_…) or a user id.";
export const DISCORD_ACCOUNT_HINT = "Paste the applicant's Discord user id (Discord: User Settings → Advanced → Developer Mode, then Copy User ID).";
