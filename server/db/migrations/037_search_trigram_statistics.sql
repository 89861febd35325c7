-- How common each trigram of the profiles' search text is, counted by ANALYZE (autovacuum's, or PGlite's statistics
-- job): a `q=` search looks up only its uncommon trigrams in the trigram index, since reading the posting lists of
-- trigrams in every profile ("sca" of "Scale 00042" among 10,000 "Scale …") made a search cost more the more profiles
-- there were (store/search-trigrams.ts).
create statistics profiles_search_trigrams on (show_trgm(search_text)) from profiles;
analyze profiles;
