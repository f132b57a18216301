/** What an attendee's answer to "How was it?" may hold (flows/event-ratings, the rating page). */
export const RATING_COMMENT_MAX = 1000;
