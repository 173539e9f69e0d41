import '../../graphql/builder.ts';
